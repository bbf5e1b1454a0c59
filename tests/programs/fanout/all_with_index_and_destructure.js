// expect: {"result":{"gold":3,"silver":3,"bronze":2}}
const [gold, silver, bronze] = await Promise.all([
  codemode.crm.listCustomers({ tier: "gold" }),
  codemode.crm.listCustomers({ tier: "silver" }),
  codemode.crm.listCustomers({ tier: "bronze" }),
]);
return { gold: gold.customers.length, silver: silver.customers.length, bronze: bronze.customers.length };
