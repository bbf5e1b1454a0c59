function* range(start: number, end: number, step: number = 1): Generator<number, void, unknown> {
  for (let i = start; i < end; i += step) yield i;
}
class Bag<T> implements Iterable<T> {
  constructor(items: T[]) {
    this.items = items;
  }
  items: T[];
  *[Symbol.iterator](): Iterator<T> {
    yield* this.items;
  }
}
[[...range(0, 10, 3)], [...new Bag<string>(["x", "y"])]]
