class Stack<T> {
  #items: T[] = [];
  push(item: T): void {
    this.#items.push(item);
  }
  pop(): T | undefined {
    return this.#items.pop();
  }
  get size(): number {
    return this.#items.length;
  }
  static of<U>(...items: U[]): Stack<U> {
    const s = new Stack<U>();
    for (const i of items) s.push(i);
    return s;
  }
}
const s = Stack.of<number>(1, 2, 3);
const top = s.pop();
[top, s.size]
