// expect: {"error": {"code": "code_rejected", "name": "SyntaxError", "line": 2}}
const { orders } = await codemode.crm.listOrders({ customerId: "c2" });
const count = orders.filter((o) => o.status === "paid")).length;
return count;
