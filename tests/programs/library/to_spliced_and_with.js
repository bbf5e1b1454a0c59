// expect: {"result":{"skus":["WIDGET","GADGET","GIZMO","FLANGE"],"replaced":["WIDGET","DOOHICKEY","GIZMO","FLANGE"],"spliced":["WIDGET","SPROCKET","FLANGE"],"prices":[1250,325,2100],"lastWith":"X"}}
const skus = ["WIDGET", "GADGET", "GIZMO", "FLANGE"];
const replaced = skus.with(1, "DOOHICKEY");
const spliced = skus.toSpliced(1, 2, "SPROCKET");
const prices = [];
for (const sku of spliced) prices.push((await codemode.crm.price({ sku })).cents);
return { skus, replaced, spliced, prices, lastWith: skus.with(-1, "X").at(-1) };
