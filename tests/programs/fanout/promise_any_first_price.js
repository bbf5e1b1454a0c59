// expect: {"result":"GIZMO"}
const candidates = ["LEGACY-1", "NOPE", "GIZMO"];
const first = await Promise.any(candidates.map((sku) => codemode.crm.price({ sku })));
return first.sku;
