// expect: {"result":30000}
const { orders } = await codemode.crm.listOrders({ customerId: "c6" });
console.log("orders", orders.length);
const skus = [...new Set(orders.map((o) => o.sku))];
console.log("distinct skus", skus);
const prices = {};
for (const sku of skus) {
  prices[sku] = (await codemode.crm.price({ sku })).cents;
  console.log(sku, "=>", prices[sku]);
}
const refunded = orders.filter((o) => o.status === "refunded").reduce((s, o) => s + prices[o.sku] * o.quantity, 0);
console.log("refunded cents", refunded);
return refunded;
