// via: run
// note: twelve calls at once, past the run's eight concurrent calls: they queue.
// expect: {"result":48946}
async (input, tools) => {
  const skus = ["WIDGET", "GADGET", "GIZMO", "DOOHICKEY", "SPROCKET", "FLANGE"];
  const calls = [...skus, ...skus].map((sku) => tools.call("crm.price", { sku }));
  const results = await Promise.all(calls);
  return results.reduce((sum, r) => sum + r.output.cents, 0);
}
