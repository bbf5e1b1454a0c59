// expect: {"error": {"code": "code_rejected", "name": "SyntaxError", "line": 1, "messageMatches": "require"}}
import fs = require("fs");
const { customers } = await codemode.crm.listCustomers({});
return customers.length;
