// expect: {"result":{"sku":"FLANGE","cents":2100}}
let best!: { sku: string; cents: number };
for (const sku of ["GIZMO", "FLANGE", "WIDGET"]) {
  const p = await codemode.crm.price({ sku });
  if (!best || p.cents > best.cents) best = { sku, cents: p.cents };
}
return best;
