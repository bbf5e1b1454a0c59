// expect: {"result":{"union":["DOOHICKEY","FLANGE","GADGET","GIZMO","SPROCKET","WIDGET"],"both":["SPROCKET"],"onlyA":["GADGET","WIDGET"],"either":["DOOHICKEY","FLANGE","GADGET","GIZMO","WIDGET"],"subset":true,"disjoint":true}}
const a = await codemode.crm.listOrders({ customerId: "c1" });
const b = await codemode.crm.listOrders({ customerId: "c6" });
const skusA = new Set(a.orders.map((o) => o.sku));
const skusB = new Set(b.orders.map((o) => o.sku));
return {
  union: [...skusA.union(skusB)].sort(),
  both: [...skusA.intersection(skusB)],
  onlyA: [...skusA.difference(skusB)].sort(),
  either: [...skusA.symmetricDifference(skusB)].sort(),
  subset: new Set(["SPROCKET"]).isSubsetOf(skusA),
  disjoint: skusA.isDisjointFrom(new Set(["FLANGE"])),
};
