// expect: {"result":{"name":"AggregateError","count":2,"codes":["tool_failed","tool_failed"]}}
try {
  await Promise.any(["LEGACY-1", "NOPE"].map((sku) => codemode.crm.price({ sku })));
  return "unexpected";
} catch (e) {
  return { name: e.name, count: e.errors.length, codes: e.errors.map((x) => x.code) };
}
