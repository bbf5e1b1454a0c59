// expect: {"result":{"status":"failed","code":"TOOL_FAILED"}}
const res = await tools.call("crm.listOrders", { customerId: "c0" });
return { status: res.status, code: res.error?.code };
