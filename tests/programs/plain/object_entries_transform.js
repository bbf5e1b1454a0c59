// expect: {"result":[{"sku":"WIDGET","dollars":12.5},{"sku":"GADGET","dollars":49.99}]}
const skus = ["WIDGET", "GADGET", "GIZMO"];
const prices = {};
for (const sku of skus) {
  const res = await codemode.crm.price({ sku });
  prices[sku] = res.cents;
}
return Object.entries(prices)
  .filter(([, cents]) => cents > 1000)
  .map(([sku, cents]) => ({ sku, dollars: cents / 100 }));
