// expect: {"result":{"customers":8,"timed":true}}
const t0 = Date.now();
const { customers } = await codemode.crm.listCustomers({});
const elapsed = Date.now() - t0;
console.log(`listCustomers took ${elapsed}ms`);
return { customers: customers.length, timed: elapsed >= 0 };
