// Phase 1 of catalog.quote: one catalog.price call per sku, then the total. It has only read
// effects; the percent is passed on for the next phase.
async (input, tools) => {
  let totalCents = 0;
  for (const sku of input.skus) {
    const price = await tools.call('catalog.price', { sku });
    if (price.status !== 'succeeded') throw new Error('price lookup failed');
    totalCents += price.output.cents;
  }
  return { totalCents, percent: input.percent };
}
