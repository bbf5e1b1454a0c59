// expect: {"result":["c"]}
function debounce(fn, ms) {
  let timer;
  return (...args) =>
    new Promise((resolve) => {
      clearTimeout(timer);
      timer = setTimeout(() => resolve(fn(...args)), ms);
    });
}
const calls = [];
const record = debounce((x) => calls.push(x), 30);
record("a");
record("b");
await record("c");
return calls;
