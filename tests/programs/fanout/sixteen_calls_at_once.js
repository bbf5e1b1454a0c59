// note: 16 calls in one Promise.all: the whole host-call budget, four at a time.
// expect: {"result":{"cents":30722,"orders":16}}
const skus = ["WIDGET", "GADGET", "GIZMO", "DOOHICKEY", "SPROCKET", "FLANGE", "WIDGET", "GADGET"];
const ids = ["c1", "c2", "c3", "c4", "c5", "c6", "c7", "c8"];
const [prices, lists] = await Promise.all([
  Promise.all(skus.map((sku) => codemode.crm.price({ sku }))),
  Promise.all(ids.map((customerId) => codemode.crm.listOrders({ customerId }))),
]);
return {
  cents: prices.reduce((s, p) => s + p.cents, 0),
  orders: lists.reduce((s, l) => s + l.orders.length, 0),
};
