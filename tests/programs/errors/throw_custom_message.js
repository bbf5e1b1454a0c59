// expect: {"error": {"code": "code_rejected", "name": "Error", "message": "Customer c5 has no orders to invoice", "line": 3}}
const { orders } = await codemode.crm.listOrders({ customerId: "c5" });
if (orders.length === 0) {
  throw new Error("Customer c5 has no orders to invoice");
}
return orders;
