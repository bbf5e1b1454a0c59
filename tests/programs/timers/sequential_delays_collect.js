// expect: {"result":["first","second","third"]}
const wait = (ms, value) => new Promise((resolve) => setTimeout(() => resolve(value), ms));
const results = [];
for (const [ms, label] of [[30, "first"], [10, "second"], [20, "third"]]) {
  results.push(await wait(ms, label));
}
return results;
