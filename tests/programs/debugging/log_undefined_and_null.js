// expect: {"result":null}
// expect: {"logs":["missing: undefined","fallback: null false","count 3"]}
const { customers } = await codemode.crm.listCustomers({ tier: "gold" });
const missing = customers.find((c) => c.country === "JP");
console.log("missing:", missing);
console.log("fallback:", missing?.name ?? null, Boolean(missing));
console.log("count", customers.length);
return missing ?? null;
