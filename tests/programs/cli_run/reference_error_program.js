// via: run
// expect: {"error": {"code": "TOOL_FAILED", "rule": "program_error", "name": "ReferenceError", "messageIncludes": "ordrs is not defined"}}
async (input, tools) => {
  const res = await tools.call("crm.listOrders", { customerId: "c1" });
  const orders = res.output.orders;
  return ordrs.length;
}
