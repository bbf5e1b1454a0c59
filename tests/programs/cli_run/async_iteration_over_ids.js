// via: run
// input: {"ids": ["c3", "c7", "c8"]}
// expect: {"result":[3,1,2]}
async (input, tools) => {
  const counts = [];
  for await (const res of input.ids.map((customerId) => tools.call("crm.listOrders", { customerId }))) {
    counts.push(res.output.orders.length);
  }
  return counts;
}
