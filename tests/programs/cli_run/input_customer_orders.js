// via: run
// input: {"customerId": "c6"}
// expect: {"result":["o1010","o1011","o1012","o1013"]}
async (input, tools) => {
  const res = await tools.call("crm.listOrders", { customerId: input.customerId });
  if (res.status !== "succeeded") throw new Error("listOrders failed");
  return res.output.orders.map((o) => o.id);
}
