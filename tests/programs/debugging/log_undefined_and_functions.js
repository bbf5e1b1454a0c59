// expect: {"result":null}
// expect: {"logs":["missing: undefined","formatter: [function]","count 3"]}
const { customers } = await codemode.crm.listCustomers({ tier: "gold" });
const missing = customers.find((c) => c.country === "JP");
console.log("missing:", missing);
console.log("formatter:", (x) => x);
console.log("count", customers.length);
return missing ?? null;
