// expect: {"result":{"skus":["WIDGET","GADGET","SPROCKET","FLANGE","LEGACY-1"],"last":"LEGACY-1"}}
const unique = <T,>(xs: T[]): T[] => [...new Set(xs)];
const last = <T,>(xs: readonly T[]): T | undefined => xs[xs.length - 1];

const a = await codemode.crm.listOrders({ customerId: "c1" });
const b = await codemode.crm.listOrders({ customerId: "c3" });
const skus = unique([...a.orders, ...b.orders].map((o) => o.sku));
return { skus, last: last(skus) };
