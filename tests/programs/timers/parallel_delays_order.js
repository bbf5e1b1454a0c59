// expect: {"result":{"all":["slow","fast","medium"],"order":["fast","medium","slow"]}}
const order = [];
const wait = (ms, label) => new Promise((resolve) => setTimeout(() => { order.push(label); resolve(label); }, ms));
const all = await Promise.all([wait(60, "slow"), wait(10, "fast"), wait(30, "medium")]);
return { all, order };
