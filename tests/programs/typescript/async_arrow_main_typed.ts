// note: a typed async arrow as the whole text: it is called.
// expect: {"result":{"customers":2,"orders":6}}
async (): Promise<{ customers: number; orders: number }> => {
  const { customers } = await codemode.crm.listCustomers({ country: "GB" });
  let orders: number = 0;
  for (const c of customers) {
    const res = await codemode.crm.listOrders({ customerId: c.id });
    orders += res.orders.length;
  }
  return { customers: customers.length, orders };
}
