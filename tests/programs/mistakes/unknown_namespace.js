// expect: {"error": {"code": "code_rejected", "name": "TypeError", "line": 1, "messageIncludes": "codemode.sales"}}
const { customers } = await codemode.sales.listCustomers({});
return customers;
