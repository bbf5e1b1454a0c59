// expect: {"result":1}
async _ => {
  const { customers } = await codemode.crm.listCustomers({ country: "FI" });
  return customers.length;
}
