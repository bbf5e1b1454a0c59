// via: run
// expect: {"result":{"ok":"succeeded","bad":"failed","code":"TOOL_FAILED","rule":"tool_failed"}}
async (input, tools) => {
  const ok = await tools.call("crm.price", { sku: "GADGET" });
  const bad = await tools.call("crm.price", { sku: "LEGACY-1" });
  return {
    ok: ok.status,
    bad: bad.status,
    code: bad.error.code,
    rule: bad.error.rule,
  };
}
