// expect: {"result":{"isError":true,"hasMessage":true,"code":"tool_failed","operation":"crm.listOrders"}}
try {
  await codemode.crm.listOrders({ customerId: "c77" });
} catch (e) {
  return {
    isError: e instanceof Error,
    hasMessage: typeof e.message === "string" && e.message.length > 0,
    code: e.code,
    operation: e.operation,
  };
}
