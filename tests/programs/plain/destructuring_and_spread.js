// expect: {"result":{"name":"Ada Lovelace","email":"ada@example.com","otherKeys":["country","id","since","tier"],"remaining":1}}
const { customers } = await codemode.crm.listCustomers({ country: "GB" });
const [first, ...rest] = customers;
const { name, email, ...others } = first;
return { name, email, otherKeys: Object.keys(others), remaining: rest.length };
