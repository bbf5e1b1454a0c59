// via: run
// expect: {"error": {"code": "TOOL_FAILED", "rule": "program_error", "name": "SyntaxError", "messageMatches": "enum"}}
async (input: unknown, tools: any) => {
  enum Tier { Gold = "gold" }
  const res = await tools.call("crm.listCustomers", { tier: Tier.Gold });
  return res.output.customers.length;
}
