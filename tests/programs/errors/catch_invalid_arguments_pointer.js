// note: the schema refusal names the JSON pointer of the wrong argument and the rule it broke.
// expect: {"result": {"code": "invalid_arguments", "namesPointer": true}}
try {
  await codemode.crm.listOrders({ customerId: 7 });
  return "accepted";
} catch (e) {
  return { code: e.code, namesPointer: e.message.includes("/customerId: must be string") };
}
