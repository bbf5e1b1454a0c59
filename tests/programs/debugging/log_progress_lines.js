// expect: {"result":9}
// expect: {"logs":["Fetching customers...","Got 3 customers","  c1: 3 orders","  c2: 2 orders","  c6: 4 orders","Done. total = 9"]}
console.log("Fetching customers...");
const { customers } = await codemode.crm.listCustomers({ tier: "gold" });
console.log(`Got ${customers.length} customers`);
let total = 0;
for (const c of customers) {
  const { orders } = await codemode.crm.listOrders({ customerId: c.id });
  console.log(`  ${c.id}: ${orders.length} orders`);
  total += orders.length;
}
console.log("Done. total =", total);
return total;
