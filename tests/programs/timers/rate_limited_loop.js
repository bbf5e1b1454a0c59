// expect: {"result":[1250,4999,799,15000]}
const RATE_LIMIT_MS = 200;
const skus = ["WIDGET", "GADGET", "GIZMO", "DOOHICKEY"];
const out = [];
let last = 0;
for (const sku of skus) {
  const now = Date.now();
  const wait = Math.max(0, last + RATE_LIMIT_MS - now);
  if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  last = Date.now();
  const { cents } = await codemode.crm.price({ sku });
  out.push(cents);
}
return out;
