// note: sequential calls in a for...of loop, summing quantity times unit price.
// expect: {"result":{"customerId":"c1","totalCents":9999,"totalDollars":99.99}}
const { orders } = await codemode.crm.listOrders({ customerId: "c1" });
let totalCents = 0;
for (const order of orders) {
  if (order.status !== "paid") continue;
  const { cents } = await codemode.crm.price({ sku: order.sku });
  totalCents += cents * order.quantity;
}
return { customerId: "c1", totalCents, totalDollars: totalCents / 100 };
