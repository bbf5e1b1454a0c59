// expect: {"result":[["DOOHICKEY",15000],["FLANGE",2100],["GADGET",4999],["GIZMO",799],["LEGACY-1",null],["SPROCKET",325],["WIDGET",1250]]}
const lists = await Promise.all(["c1", "c3", "c6", "c8"].map((customerId) => codemode.crm.listOrders({ customerId })));
const skus = [...new Set(lists.flatMap((l) => l.orders.map((o) => o.sku)))].sort();
const settled = await Promise.allSettled(skus.map((sku) => codemode.crm.price({ sku })));
return skus.map((sku, i) => [sku, settled[i].status === "fulfilled" ? settled[i].value.cents : null]);
