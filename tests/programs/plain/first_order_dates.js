// expect: {"result":{"Ada Lovelace":"2024-01-05","Grace Hopper":"2024-01-20","Barbara Liskov":"2024-01-15"}}
const { customers } = await codemode.crm.listCustomers({ tier: "gold" });
const out = {};
for (const c of customers) {
  const { orders } = await codemode.crm.listOrders({ customerId: c.id });
  const dates = orders.map((o) => o.createdAt).sort();
  out[c.name] = dates[0]?.slice(0, 10) ?? null;
}
return out;
