// expect: {"error": {"code": "code_rejected", "name": "TypeError", "line": 3}}
const { customers } = await codemode.crm.listCustomers({});
const japan = customers.find((c) => c.country === "JP");
return japan.name;
