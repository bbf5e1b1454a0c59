// expect: {"result":["c5","c7"]}
return (async () => {
  const { customers } = await codemode.crm.listCustomers({ tier: "bronze" });
  return customers.map((c) => c.id);
})();
