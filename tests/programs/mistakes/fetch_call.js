// note: the message adds one sentence saying what to use instead.
// note: the column is SpiderMonkey 102's: where the expression being evaluated starts.
// expect: {"error": {"code": "code_rejected", "name": "ReferenceError", "line": 1, "column": 18, "messageMatches": "fetch is not defined.{8,}"}}
const response = await fetch("https://crm.example.com/api/customers");
const customers = await response.json();
return customers.length;
