// note: an unknown namespace throws unknown_method (an Error naming the closest), not a TypeError.
// expect: {"error": {"code": "code_rejected", "name": "Error", "line": 1, "messageIncludes": "codemode.sales"}}
const { customers } = await codemode.sales.listCustomers({});
return customers;
