// expect: {"result":[15,4,8,2,0,25,2,7]}
async function mapWithConcurrency(items, limit, fn) {
  const results = new Array(items.length);
  let next = 0;
  async function worker() {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index], index);
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
const { customers } = await codemode.crm.listCustomers({});
const totals = await mapWithConcurrency(customers, 3, async (c) => {
  const { orders } = await codemode.crm.listOrders({ customerId: c.id });
  return orders.reduce((n, o) => n + o.quantity, 0);
});
return totals;
