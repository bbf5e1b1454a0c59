// expect: {"result":{"batches":3,"counts":[3,2,3,1,0,4,1,2]}}
const { customers } = await codemode.crm.listCustomers({});
const BATCH = 3;
const counts = [];
let batches = 0;
for (let i = 0; i < customers.length; i += BATCH) {
  const batch = customers.slice(i, i + BATCH);
  const results = await Promise.all(batch.map((c) => codemode.crm.listOrders({ customerId: c.id })));
  counts.push(...results.map((r) => r.orders.length));
  batches++;
}
return { batches, counts };
