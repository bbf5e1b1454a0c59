const first = <T,>(xs: T[]): T | undefined => xs[0];
const last = <T>(xs: readonly T[]): T | undefined => xs[xs.length - 1];
const pair = <A, B>(a: A, b: B): [A, B] => [a, b];
({ first: first([3, 2, 1]), last: last(["x", "y"]), pair: pair(1, "one") })
