// note: await inside a callback that is not async.
// expect: {"error": {"code": "code_rejected", "name": "SyntaxError", "line": 3}}
const { customers } = await codemode.crm.listCustomers({});
const counts = customers.map((c) => {
  const { orders } = await codemode.crm.listOrders({ customerId: c.id });
  return orders.length;
});
return counts;
