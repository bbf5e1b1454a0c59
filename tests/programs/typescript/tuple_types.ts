// expect: {"result":{"pairs":[["SPROCKET",325],["DOOHICKEY",15000]],"cheapest":"SPROCKET"}}
type Pair = [sku: string, cents: number];

const skus = ["SPROCKET", "DOOHICKEY"];
const pairs: Pair[] = [];
for (const sku of skus) {
  const price = await codemode.crm.price({ sku });
  pairs.push([sku, price.cents]);
}
const [cheapest]: Pair[] = [...pairs].sort((a: Pair, b: Pair) => a[1] - b[1]);
return { pairs, cheapest: cheapest[0] };
