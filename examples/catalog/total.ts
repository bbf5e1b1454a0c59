// catalog.total as a model would write it: TypeScript, a fan-out over the skus and a debugging
// print. Run in the model profile (`codemode run --profile model`): its types are erased, not
// compiled, so every line and column is the one written here, and `console` exists.
interface PriceAnswer {
  status: string;
  output?: { cents: number };
}

async (input: { skus: string[] }, tools): Promise<{ totalCents: number }> => {
  const answers = (await Promise.all(
    input.skus.map((sku) => tools.call('catalog.price', { sku })),
  )) as PriceAnswer[];
  let total = 0;
  answers.forEach((answer, i) => {
    if (answer.status !== 'succeeded') throw new Error(`no price for ${input.skus[i]}`);
    total += answer.output!.cents;
  });
  console.log(`priced ${answers.length} skus`);
  return { totalCents: total };
}
