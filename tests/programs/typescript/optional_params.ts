// expect: {"result":["all: 4","paid: 2 (paid only)"]}
async function ordersFor(customerId: string, status?: "paid" | "pending" | "refunded"): Promise<number> {
  const args: { customerId: string; status?: string } = { customerId };
  if (status) args.status = status;
  const { orders } = await codemode.crm.listOrders(args as any);
  return orders.length;
}

function describe(label: string, count: number, suffix?: string): string {
  return `${label}: ${count}${suffix ?? ""}`;
}

return [
  describe("all", await ordersFor("c6")),
  describe("paid", await ordersFor("c6", "paid"), " (paid only)"),
];
