// expect: {"result":{"paid":22,"pending":1,"refunded":2}}
type Status = "paid" | "pending" | "refunded";
type Order = { id: string; sku: string; quantity: number; status: Status };
type Summary = Record<Status, number>;

const { orders } = await codemode.crm.listOrders({ customerId: "c6" });
const summary: Summary = { paid: 0, pending: 0, refunded: 0 };
for (const order of orders as Order[]) {
  summary[order.status] += order.quantity;
}
return summary;
