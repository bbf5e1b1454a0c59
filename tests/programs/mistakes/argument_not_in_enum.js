// expect: {"error": {"code": "code_rejected", "messageIncludes": "/tier"}}
const { customers } = await codemode.crm.listCustomers({ tier: "platinum" });
return customers;
