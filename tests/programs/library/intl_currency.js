// expect: {"result":{"WIDGET":"$12.50","DOOHICKEY":"$150.00"}}
const usd = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });
const skus = ["WIDGET", "DOOHICKEY"];
const out = {};
for (const sku of skus) {
  const { cents } = await codemode.crm.price({ sku });
  out[sku] = usd.format(cents / 100);
}
return out;
