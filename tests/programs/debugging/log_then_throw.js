// note: the lines logged before an uncaught throw come back with the error.
// expect: {"error": {"code": "code_rejected", "name": "Error", "message": "no orders for c5"}}
// expect: {"logs":["checking c5","orders found: 0"]}
console.log("checking c5");
const { orders } = await codemode.crm.listOrders({ customerId: "c5" });
console.log("orders found:", orders.length);
if (orders.length === 0) throw new Error("no orders for c5");
return orders;
