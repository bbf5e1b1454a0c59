const input: unknown = "42";
const asString = <string>input;
const n = <number>(<unknown>Number(asString));
const arr = <number[]>[1, 2, 3];
[asString.length, n + 1, arr.length]
