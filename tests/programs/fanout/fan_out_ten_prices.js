// expect: {"result":28947}
const skus = ["WIDGET", "GADGET", "GIZMO", "DOOHICKEY", "SPROCKET", "FLANGE", "GIZMO", "WIDGET", "SPROCKET", "FLANGE"];
const results = await Promise.all(skus.map(async (sku, i) => ({ i, cents: (await codemode.crm.price({ sku })).cents })));
return results.reduce((sum, r) => sum + r.cents, 0);
