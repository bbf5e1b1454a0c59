// expect: {"error": {"code": "code_rejected", "name": "SyntaxError", "line": 5, "messageMatches": "enum"}}
interface Row {
  id: string;
}

const enum Status {
  Paid = "paid",
}
const { orders } = await codemode.crm.listOrders({ customerId: "c1", status: Status.Paid });
return orders.map((o: Row) => o.id);
