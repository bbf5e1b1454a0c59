// note: a model slipping into Python.
// expect: {"error": {"code": "code_rejected", "name": "SyntaxError", "line": 2}}
const { customers } = await codemode.crm.listCustomers({});
for c in customers:
    print(c.name)
return customers;
