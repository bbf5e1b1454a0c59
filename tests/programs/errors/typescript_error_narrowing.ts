// expect: {"result":{"GADGET":4999,"LEGACY-1":"crm.price: tool_failed"}}
type ToolError = Error & { code: string; operation: string };

function isToolError(e: unknown): e is ToolError {
  return e instanceof Error && typeof (e as any).code === "string";
}

const outcome: Record<string, string | number> = {};
for (const sku of ["GADGET", "LEGACY-1"]) {
  try {
    outcome[sku] = (await codemode.crm.price({ sku })).cents;
  } catch (e: unknown) {
    outcome[sku] = isToolError(e) ? `${e.operation}: ${e.code}` : String(e);
  }
}
return outcome;
