// catalog.total, codemode's first example: add up the prices of several products,
// one catalog.price tool call per sku. It shows a program that loops over tool calls and checks
// each result; it leaves out schemas, which `codemode run` does not set (any input, any output).
async (input, tools) => {
  let total = 0;
  for (const sku of input.skus) {
    const result = await tools.call('catalog.price', { sku });
    if (result.status !== 'succeeded') throw new Error('price lookup failed');
    total += result.output.cents;
  }
  return { totalCents: total };
}
