// expect: {"error": {"code": "code_rejected", "messageIncludes": "The result is not JSON"}}
const { customers } = await codemode.crm.listCustomers({ tier: "gold" });
const report = { customers };
report.self = report;
return report;
