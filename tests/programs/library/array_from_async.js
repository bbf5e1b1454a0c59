// expect: {"result":{"counts":[3,0,4],"doubled":[2,4,6]}}
async function* customerOrderCounts(ids) {
  for (const customerId of ids) {
    const { orders } = await codemode.crm.listOrders({ customerId });
    yield orders.length;
  }
}
const counts = await Array.fromAsync(customerOrderCounts(["c1", "c5", "c6"]));
const doubled = await Array.fromAsync([1, Promise.resolve(2), 3], (x) => x * 2);
return { counts, doubled };
