// via: run
// expect: {"result":{"cheapest":"SPROCKET"}}
async function main(input: unknown, tools: any): Promise<{ cheapest: string }> {
  const skus = ["GIZMO", "SPROCKET", "WIDGET"] as const;
  let cheapest: string = skus[0];
  let best = Infinity;
  for (const sku of skus) {
    const { output } = await tools.call("crm.price", { sku });
    if (output!.cents < best) {
      best = output.cents;
      cheapest = sku;
    }
  }
  return { cheapest } satisfies { cheapest: string };
}
