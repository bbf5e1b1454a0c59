// via: run
// expect: {"error": {"code": "TOOL_FAILED", "rule": "program_error", "name": "ReferenceError", "messageMatches": "fetch is not defined.{8,}"}}
async (input, tools) => {
  const res = await fetch("https://crm.example.com/customers");
  return res.status;
}
