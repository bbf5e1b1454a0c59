// expect: {"result":{"cents":2100,"currency":"USD"}}
// expect: {"logs":["{\n  \"cents\": 2100,\n  \"currency\": \"USD\"\n}"]}
const { cents, currency } = await codemode.crm.price({ sku: "FLANGE" });
console.log(JSON.stringify({ cents, currency }, null, 2));
return { cents, currency };
