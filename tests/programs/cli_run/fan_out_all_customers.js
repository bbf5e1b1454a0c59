// via: run
// expect: {"result":{"c1":3,"c2":2,"c3":3,"c4":1,"c5":0,"c6":4,"c7":1,"c8":2}}
async (input, tools) => {
  const list = await tools.call("crm.listCustomers", {});
  const customers = list.output.customers;
  const results = await Promise.all(
    customers.map((c) => tools.call("crm.listOrders", { customerId: c.id })),
  );
  return Object.fromEntries(customers.map((c, i) => [c.id, results[i].output.orders.length]));
}
