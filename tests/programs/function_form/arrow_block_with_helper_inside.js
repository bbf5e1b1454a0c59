// expect: {"result":{"c1":15,"c3":8,"c6":25}}
async () => {
  const sumQty = (orders) => orders.reduce((n, o) => n + o.quantity, 0);
  const results = {};
  for (const customerId of ["c1", "c3", "c6"]) {
    const { orders } = await codemode.crm.listOrders({ customerId });
    results[customerId] = sumQty(orders);
  }
  return results;
}
