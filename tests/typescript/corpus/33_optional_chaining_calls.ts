interface Node_ {
  value: number;
  next?: Node_;
  visit?: (n: number) => number;
}
const list: Node_ = { value: 1, next: { value: 2, visit: (n: number) => n * 10 } };
const second = list.next?.value;
const third = list.next?.next?.value ?? -1;
const visited = list.next?.visit?.(5);
const missing = list.visit?.<number>(1);
[second, third, visited, missing ?? null]
