// expect: {"error": {"code": "code_rejected", "name": "ReferenceError", "line": 1, "column": 12, "messageMatches": "require is not defined.{8,}"}}
const fs = require("fs");
const { customers } = await codemode.crm.listCustomers({});
fs.writeFileSync("/tmp/customers.json", JSON.stringify(customers));
return "saved";
