// expect: {"result":{"fired":["b"],"handlesDiffer":true}}
const fired = [];
const a = setTimeout(() => fired.push("a"), 30);
const b = setTimeout(() => fired.push("b"), 40);
clearTimeout(a);
await new Promise((r) => setTimeout(r, 80));
return { fired, handlesDiffer: a !== b };
