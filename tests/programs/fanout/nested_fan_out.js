// expect: {"result":[{"id":"c1","paidCents":9999},{"id":"c2","paidCents":15000},{"id":"c6","paidCents":8098}]}
const { customers } = await codemode.crm.listCustomers({ tier: "gold" });
const report = await Promise.all(
  customers.map(async (c) => {
    const { orders } = await codemode.crm.listOrders({ customerId: c.id, status: "paid" });
    const lines = await Promise.all(
      orders.map(async (o) => (await codemode.crm.price({ sku: o.sku })).cents * o.quantity),
    );
    return { id: c.id, paidCents: lines.reduce((a, b) => a + b, 0) };
  }),
);
return report;
