// expect: {"error": {"code": "code_rejected", "messageIncludes": "listCustomers"}}
const customers = await codemode.crm.getCustomers({});
return customers.length;
