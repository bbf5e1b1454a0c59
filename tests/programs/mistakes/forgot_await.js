// note: without await, the promise has no customers property; the destructured value is undefined.
// expect: {"error": {"code": "code_rejected", "name": "TypeError", "line": 2, "messageIncludes": "customers"}}
const { customers } = codemode.crm.listCustomers({});
return customers.length;
