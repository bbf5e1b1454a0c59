// via: run
// input: {"customerId": "c6"}
// expect: {"result":{"statuses":["paid","pending","refunded"],"lastPaid":"o1012"}}
async ({ customerId }, tools) => {
  const { output } = await tools.call("crm.listOrders", { customerId });
  const grouped = Object.groupBy(output.orders, (o) => o.status);
  return {
    statuses: Object.keys(grouped).sort(),
    lastPaid: output.orders.findLast((o) => o.status === "paid").id,
  };
}
