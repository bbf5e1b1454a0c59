// note: a function expression that returns nothing: the result is null.
// expect: {"result": null}
async function main() {
  await codemode.crm.listCustomers({});
}
