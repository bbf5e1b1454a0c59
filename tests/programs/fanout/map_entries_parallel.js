// expect: {"result":{"anchor":15000,"filler":325,"mid":2100,"low":799,"top":4999}}
const wanted = { anchor: "DOOHICKEY", filler: "SPROCKET", mid: "FLANGE", low: "GIZMO", top: "GADGET" };
const entries = await Promise.all(
  Object.entries(wanted).map(async ([label, sku]) => [label, (await codemode.crm.price({ sku })).cents]),
);
return Object.fromEntries(entries);
