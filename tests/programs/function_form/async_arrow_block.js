// expect: {"result":3}
async () => {
  const { customers } = await codemode.crm.listCustomers({ tier: "gold" });
  return customers.length;
}
