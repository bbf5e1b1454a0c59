// expect: {"result":true}
const start = Date.now();
await new Promise((r) => setTimeout(r, 120));
const elapsed = Date.now() - start;
return elapsed >= 100 && elapsed < 4000;
