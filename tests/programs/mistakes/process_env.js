// expect: {"error": {"code": "code_rejected", "name": "ReferenceError", "line": 1, "column": 16, "messageMatches": "process is not defined.{8,}"}}
const apiKey = process.env.CRM_API_KEY;
const { customers } = await codemode.crm.listCustomers({});
return { apiKey, count: customers.length };
