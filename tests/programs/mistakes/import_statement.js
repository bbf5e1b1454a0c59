// note: an import declaration: there are no modules.
// expect: {"error": {"code": "code_rejected", "name": "SyntaxError", "line": 1}}
import fs from "fs";
const { customers } = await codemode.crm.listCustomers({});
return customers.length;
