// expect: {"result":["FI","GB","NL","US"]}
// expect: {"logs":["countries [\"GB\",\"US\",\"NL\",\"FI\"]","size 4"]}
const { customers } = await codemode.crm.listCustomers({});
const countries = new Set(customers.map((c) => c.country));
console.log("countries", [...countries]);
console.log("size", countries.size);
return [...countries].sort();
