// expect: {"result":[{"sku":"WIDGET","cents":1250},{"sku":"LEGACY-1","error":"tool_failed"},{"sku":"GIZMO","cents":799},{"sku":"NOPE","error":"tool_failed"},{"sku":"FLANGE","cents":2100}]}
const skus = ["WIDGET", "LEGACY-1", "GIZMO", "NOPE", "FLANGE"];
const settled = await Promise.allSettled(skus.map((sku) => codemode.crm.price({ sku })));
return settled.map((s, i) =>
  s.status === "fulfilled" ? { sku: skus[i], cents: s.value.cents } : { sku: skus[i], error: s.reason.code },
);
