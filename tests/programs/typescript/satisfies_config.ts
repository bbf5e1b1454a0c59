// expect: {"result":["o1010"]}
type Config = { customerId: string; status?: "paid" | "pending" | "refunded"; limit: number };

const config = {
  customerId: "c6",
  status: "paid",
  limit: 1,
} satisfies Config;

const { orders } = await codemode.crm.listOrders({ customerId: config.customerId, status: config.status });
return orders.slice(0, config.limit).map((o) => o.id);
