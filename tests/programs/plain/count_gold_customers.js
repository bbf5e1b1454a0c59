// note: the smallest useful program: one call, one filter.
// expect: {"result":3}
const { customers } = await codemode.crm.listCustomers({ tier: "gold" });
return customers.length;
