// via: run
// expect: {"result":{"status":"failed","rule":"input_schema"}}
async (input, tools) => {
  const res = await tools.call("crm.listOrders", { customerId: 12 });
  return { status: res.status, rule: res.error?.rule };
}
