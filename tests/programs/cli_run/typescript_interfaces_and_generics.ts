// via: run
// input: {"customerIds": ["c1", "c8"]}
// expect: {"result":{"c1":15,"c8":7}}
async (input: { customerIds: string[] }, tools: { call(id: string, args: object): Promise<any> }) => {
  interface Order { id: string; sku: string; quantity: number; status: string }
  const sum = <T,>(xs: T[], f: (x: T) => number): number => xs.reduce((n, x) => n + f(x), 0);
  const out: Record<string, number> = {};
  for (const customerId of input.customerIds) {
    const res = await tools.call("crm.listOrders", { customerId });
    out[customerId] = sum(res.output.orders as Order[], (o) => o.quantity);
  }
  return out;
}
