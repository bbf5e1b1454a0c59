// expect: {"result":3}
// expect: {"logs":["id     sku       qty status","o1001  WIDGET      4 paid","o1002  GADGET      1 paid","o1003  SPROCKET   10 refunded"]}
const { orders } = await codemode.crm.listOrders({ customerId: "c1" });
console.log("id     sku       qty status");
for (const o of orders) {
  console.log(`${o.id}  ${o.sku.padEnd(9)} ${String(o.quantity).padStart(3)} ${o.status}`);
}
return orders.length;
