// note: the message adds one sentence saying what to use instead.
// expect: {"error": {"code": "code_rejected", "name": "ReferenceError", "line": 1, "column": 24, "messageMatches": "fetch is not defined.{8,}"}}
const response = await fetch("https://crm.example.com/api/customers");
const customers = await response.json();
return customers.length;
