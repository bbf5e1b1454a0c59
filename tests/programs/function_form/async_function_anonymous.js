// expect: {"result":["Hopper","Johnson","Liskov","Hamilton"]}
async function () {
  const { customers } = await codemode.crm.listCustomers({ country: "US" });
  return customers.map((c) => c.name.split(" ")[1]);
}
