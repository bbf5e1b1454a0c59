// expect: {"error": {"code": "code_rejected", "messageIncludes": "customerId"}}
const { orders } = await codemode.crm.listOrders({ id: "c1" });
return orders;
