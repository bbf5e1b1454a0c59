// expect: {"result":["o1015 GIZMO $47.94","o1016 GADGET $49.99"]}
function formatCents(cents) {
  return "$" + (cents / 100).toFixed(2);
}

async function lineTotal(order) {
  const { cents } = await codemode.crm.price({ sku: order.sku });
  return cents * order.quantity;
}

const { orders } = await codemode.crm.listOrders({ customerId: "c8" });
const lines = [];
for (const order of orders) {
  lines.push(`${order.id} ${order.sku} ${formatCents(await lineTotal(order))}`);
}
return lines;
