// expect: {"result":2}
const winner = await Promise.race([
  codemode.crm.listCustomers({ tier: "bronze" }),
  new Promise((resolve) => setTimeout(() => resolve({ customers: [] }), 3000)),
]);
return winner.customers.length;
