// note: the column is SpiderMonkey 102's: where the expression being evaluated starts.
// expect: {"error": {"code": "code_rejected", "name": "ReferenceError", "line": 4, "column": 3, "messageIncludes": "order is not defined", "source": "qty += Number(order.quantity);"}}
const { orders } = await codemode.crm.listOrders({ customerId: "c1" });
let qty = 0;
for (const o of orders) {
  qty += Number(order.quantity);
}
return qty;
