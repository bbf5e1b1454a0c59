const a: number = 1, b: number = 2, c: number = 3;
const lt = a < b;
const both = a < b && b > a;
const chain = [a < b, b > c];
const mixed = (a < b) === (c > b);
const shifted = (a << 2) >> 1;
const g = (x: number) => x;
const call = g(a) < g(b);
[lt, both, chain, mixed, shifted, call]
