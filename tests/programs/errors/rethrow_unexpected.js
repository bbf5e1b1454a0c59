// note: a handler that rethrows what it does not expect: the program fails with the tool's message.
// expect: {"error": {"code": "code_rejected"}}
try {
  await codemode.crm.listOrders({ customerId: "c404" });
} catch (e) {
  if (e.code === "not_found") return [];
  throw e;
}
return "unreachable";
