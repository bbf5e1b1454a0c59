// via: run
// input: {"skus": ["WIDGET", "GIZMO", "FLANGE"]}
// expect: {"result":{"totalCents":4149}}
async (input, tools) => {
  let total = 0;
  for (const sku of input.skus) {
    const result = await tools.call("crm.price", { sku });
    if (result.status !== "succeeded") throw new Error(`price lookup failed for ${sku}`);
    total += result.output.cents;
  }
  return { totalCents: total };
}
