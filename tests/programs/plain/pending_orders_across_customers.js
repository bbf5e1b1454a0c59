// expect: {"result":["Grace Hopper: 3 x GIZMO","Barbara Liskov: 1 x FLANGE","Linus Torvalds: 2 x WIDGET"]}
const { customers } = await codemode.crm.listCustomers({});
const pending = [];
for (const c of customers) {
  const { orders } = await codemode.crm.listOrders({ customerId: c.id, status: "pending" });
  for (const o of orders) pending.push(`${c.name}: ${o.quantity} x ${o.sku}`);
}
return pending;
