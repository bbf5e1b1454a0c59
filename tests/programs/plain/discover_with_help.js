// note: a model that looks before it calls: help() and search() answer inside the program.
// expect: {"result": {"methods": ["crm.listCustomers", "crm.listOrders", "crm.price"], "found": ["crm.price"], "bronze": 2}}
const { methods } = codemode.help();
const found = codemode.search("price");
const listing = methods.includes("crm.listCustomers")
  ? await codemode.crm.listCustomers({ tier: "bronze" })
  : { customers: [] };
return { methods, found: found.map((m) => m.name), bronze: listing.customers.length };
