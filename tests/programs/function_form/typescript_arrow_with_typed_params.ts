// note: a typed function expression with a defaulted typed parameter: called with no arguments.
// expect: {"result":3}
async (customerId: string = "c1"): Promise<number> => {
  const { orders } = await codemode.crm.listOrders({ customerId });
  return orders.length;
}
