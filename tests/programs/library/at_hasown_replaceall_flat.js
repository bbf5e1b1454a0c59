// expect: {"result":{"last":"o1016","hasOwn":true,"skus":"DOOHICKEY/gIZMO/gIZMO/gADgET","pairs":[1,3,6,1]}}
const lists = [];
for (const customerId of ["c2", "c8"]) lists.push((await codemode.crm.listOrders({ customerId })).orders);
const flat = lists.flat();
return {
  last: flat.at(-1).id,
  hasOwn: Object.hasOwn(flat[0], "sku"),
  skus: flat.map((o) => o.sku).join("/").replaceAll("G", "g"),
  pairs: lists.flatMap((l) => l.map((o) => o.quantity)),
};
