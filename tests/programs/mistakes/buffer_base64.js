// note: Buffer is node's; btoa is there instead.
// expect: {"error": {"code": "code_rejected", "name": "ReferenceError", "line": 2, "column": 17, "messageMatches": "Buffer is not defined.{8,}"}}
const { customers } = await codemode.crm.listCustomers({ tier: "gold" });
const encoded = Buffer.from(JSON.stringify(customers)).toString("base64");
return encoded.length;
