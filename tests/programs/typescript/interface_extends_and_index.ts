// expect: {"result":{"SPROCKET":20,"FLANGE":1,"GIZMO":2,"DOOHICKEY":2}}
interface Entity {
  readonly id: string;
}
interface Order extends Entity {
  sku: string;
  quantity: number;
  [extra: string]: unknown;
}
interface Totals {
  [sku: string]: number;
}

const { orders } = await codemode.crm.listOrders({ customerId: "c6" });
const totals: Totals = {};
(orders as Order[]).forEach((o: Order) => {
  totals[o.sku] = (totals[o.sku] ?? 0) + o.quantity;
});
return totals;
