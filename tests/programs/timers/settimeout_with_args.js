// expect: {"result":{"value":"from-timer","sum":5}}
const value = await new Promise((resolve) => setTimeout(resolve, 10, "from-timer"));
const sum = await new Promise((resolve) => setTimeout((a, b) => resolve(a + b), 5, 2, 3));
return { value, sum };
