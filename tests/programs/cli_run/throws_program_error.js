// via: run
// expect: {"error": {"code": "TOOL_FAILED", "rule": "program_error", "name": "Error", "message": "no orders for c5"}}
async (input, tools) => {
  const res = await tools.call("crm.listOrders", { customerId: "c5" });
  if (res.output.orders.length === 0) throw new Error("no orders for c5");
  return res.output.orders;
}
