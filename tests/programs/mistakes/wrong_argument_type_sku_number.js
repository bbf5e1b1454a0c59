// expect: {"error": {"code": "code_rejected", "messageIncludes": "/sku: must be string"}}
const skus = [101, 102];
const prices = [];
for (const sku of skus) prices.push(await codemode.crm.price({ sku }));
return prices;
