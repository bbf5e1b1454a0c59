// expect: {"result":[2,1,4,2,3]}
const promises = ["c2", "c4", "c6", "c8", "c1"].map((customerId) => codemode.crm.listOrders({ customerId }));
const counts = [];
for await (const { orders } of promises) {
  counts.push(orders.length);
}
return counts;
