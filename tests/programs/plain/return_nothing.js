// note: a program that computes but forgets to return: the result is null.
// expect: {"result": null}
const { customers } = await codemode.crm.listCustomers({});
const names = customers.map((c) => c.name);
