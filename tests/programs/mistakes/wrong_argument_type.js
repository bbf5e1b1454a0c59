// expect: {"error": {"code": "code_rejected", "messageIncludes": "/customerId: must be string"}}
const { orders } = await codemode.crm.listOrders({ customerId: 3 });
return orders.length;
