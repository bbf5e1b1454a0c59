function identity<T>(x: T): T {
  return x;
}
const parsed = JSON.parse("[1]") as unknown[];
const arr = Array.from<number>({ length: 3 });
const filled = new Array<number>(3).fill(7);
const id = identity<string>("s");
const tagged = String.raw<any>`a\nb`;
const promise = Promise.resolve<number>(5);
({ parsed, arr: arr.length, filled, id, tagged, isPromise: typeof promise.then })
