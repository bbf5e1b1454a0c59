// expect: {"result":{"fallback":0,"operation":"crm.price"}}
try {
  await codemode.crm.price({ sku: "LEGACY-1" });
  return "priced";
} catch (error) {
  if (error.code === "tool_failed") return { fallback: 0, operation: error.operation };
  throw error;
}
