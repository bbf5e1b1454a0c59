// expect: {"error": {"code": "code_rejected", "name": "SyntaxError", "line": 1, "messageMatches": "enum"}}
enum Tier {
  Gold = "gold",
  Silver = "silver",
}
const { customers } = await codemode.crm.listCustomers({ tier: Tier.Gold });
return customers.length;
