// expect: {"result":{"total":5450,"skipped":[{"order":"o1008","reason":"tool_failed"}]}}
const { orders } = await codemode.crm.listOrders({ customerId: "c3" });
let total = 0;
const skipped = [];
for (const order of orders) {
  try {
    const { cents } = await codemode.crm.price({ sku: order.sku });
    total += cents * order.quantity;
  } catch (err) {
    skipped.push({ order: order.id, reason: err.code });
  }
}
return { total, skipped };
