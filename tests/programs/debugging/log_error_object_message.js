// expect: {"result":"handled"}
// expect: {"logs":["[error] listOrders failed: The tool call failed. code=tool_failed op=crm.listOrders"]}
try {
  await codemode.crm.listOrders({ customerId: "nobody" });
} catch (error) {
  console.error("listOrders failed:", error.message, "code=" + error.code, "op=" + error.operation);
}
return "handled";
