// note: the output is an object, not an array.
// expect: {"error": {"code": "code_rejected", "name": "TypeError", "line": 2, "messageIncludes": "map"}}
const customers = await codemode.crm.listCustomers({});
return customers.map((c) => c.id);
