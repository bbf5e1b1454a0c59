// note: the id passed bare instead of as {customerId}: the schema refusal names the root.
// expect: {"error": {"code": "code_rejected", "messageIncludes": "must be object"}}
const { orders } = await codemode.crm.listOrders("c1");
return orders;
