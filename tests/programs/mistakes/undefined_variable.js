// note: the column is SpiderMonkey 102's: where the expression being evaluated starts.
// expect: {"error": {"code": "code_rejected", "name": "ReferenceError", "line": 3, "column": 10, "messageIncludes": "totl is not defined", "source": "return { customers: totl };"}}
const { customers } = await codemode.crm.listCustomers({});
const total = customers.length;
return { customers: totl };
