// expect: {"result":{"GB":2,"US":4,"NL":1,"FI":1}}
const { customers } = await codemode.crm.listCustomers({});
const byCountry = {};
for (const customer of customers) {
  byCountry[customer.country] = (byCountry[customer.country] || 0) + 1;
}
return byCountry;
