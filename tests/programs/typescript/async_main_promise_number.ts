// note: the whole text is one function expression with a return type: it is called.
// expect: {"result":17397}
async function main(): Promise<number> {
  const { orders } = await codemode.crm.listOrders({ customerId: "c2" });
  let total: number = 0;
  for (const order of orders) {
    const { cents } = await codemode.crm.price({ sku: order.sku });
    total += cents * order.quantity;
  }
  return total;
}
