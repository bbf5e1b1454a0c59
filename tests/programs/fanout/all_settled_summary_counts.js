// expect: {"result":{"fulfilled":8,"rejected":2,"orders":16}}
const { customers } = await codemode.crm.listCustomers({});
const ids = [...customers.map((c) => c.id), "c99", "c100"];
const settled = await Promise.allSettled(ids.map((customerId) => codemode.crm.listOrders({ customerId })));
const summary = { fulfilled: 0, rejected: 0, orders: 0 };
for (const s of settled) {
  summary[s.status]++;
  if (s.status === "fulfilled") summary.orders += s.value.orders.length;
}
return summary;
