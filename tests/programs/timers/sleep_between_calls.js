// expect: {"result":{"c1":3,"c2":2,"c3":3}}
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const ids = ["c1", "c2", "c3"];
const counts = {};
for (const customerId of ids) {
  const { orders } = await codemode.crm.listOrders({ customerId });
  counts[customerId] = orders.length;
  await sleep(50); // be gentle with the API
}
return counts;
