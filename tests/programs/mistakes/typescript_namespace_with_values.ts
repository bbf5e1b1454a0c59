// expect: {"error": {"code": "code_rejected", "name": "SyntaxError", "line": 1, "messageMatches": "namespace"}}
namespace Money {
  export const format = (cents: number): string => `$${(cents / 100).toFixed(2)}`;
}
const { cents } = await codemode.crm.price({ sku: "GIZMO" });
return Money.format(cents);
