// expect: {"result":[3,3,2]}
async function main() {
  async function* pages() {
    for (const tier of ["gold", "silver", "bronze"]) {
      yield (await codemode.crm.listCustomers({ tier })).customers;
    }
  }
  const sizes = [];
  for await (const page of pages()) sizes.push(page.length);
  return sizes;
}
