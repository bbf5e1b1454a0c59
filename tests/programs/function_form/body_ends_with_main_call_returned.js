// expect: {"result":["Ada Lovelace","Alan Turing"]}
const main = async () => {
  const { customers } = await codemode.crm.listCustomers({ country: "GB" });
  return customers.map((c) => c.name);
};
return main();
