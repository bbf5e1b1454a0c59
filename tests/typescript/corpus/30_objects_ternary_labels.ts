const flag: boolean = true;
const obj = flag ? { a: 1, b: { c: 2 } } : { a: 0, b: { c: 0 } };
let found = -1;
outer: for (let i = 0; i < 3; i++) {
  for (let j = 0; j < 3; j++) {
    if (i * j === 2) {
      found = i * 10 + j;
      break outer;
    }
  }
}
function kind(x: number): string {
  switch (x) {
    case 1:
      return "one";
    default:
      return "many";
  }
}
({ obj, found, k: [kind(1), kind(5)] })
