// expect: {"result":[799,4,3,7099]}
const pending = {
  c1: codemode.crm.listOrders({ customerId: "c1" }),
  c6: codemode.crm.listOrders({ customerId: "c6" }),
  gizmo: codemode.crm.price({ sku: "GIZMO" }),
  flange: codemode.crm.price({ sku: "FLANGE" }),
  gadget: codemode.crm.price({ sku: "GADGET" }),
};
const gizmo = await pending.gizmo;
const c6 = await pending.c6;
const rest = await Promise.all([pending.c1, pending.flange, pending.gadget]);
return [gizmo.cents, c6.orders.length, rest[0].orders.length, rest[1].cents + rest[2].cents];
