// expect: {"result":["c3","c4","c8"]}
async ({ tier = "silver" } = {}) => {
  const { customers } = await codemode.crm.listCustomers({ tier });
  return customers.map((c) => c.id);
}
