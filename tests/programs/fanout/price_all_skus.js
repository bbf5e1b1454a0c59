// expect: {"result":["WIDGET=1250","GADGET=4999","GIZMO=799","DOOHICKEY=15000","SPROCKET=325","FLANGE=2100"]}
const skus = ["WIDGET", "GADGET", "GIZMO", "DOOHICKEY", "SPROCKET", "FLANGE"];
const prices = await Promise.all(skus.map((sku) => codemode.crm.price({ sku })));
return prices.map((p) => `${p.sku}=${p.cents}`);
