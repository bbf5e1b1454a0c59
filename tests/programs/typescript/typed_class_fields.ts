// expect: {"result":{"sum":4897,"hits":3,"misses":2}}
class PriceCache {
  private readonly prices: Map<string, number> = new Map();
  public hits: number = 0;
  misses = 0;
  declare note: string;

  async get(sku: string): Promise<number> {
    const cached = this.prices.get(sku);
    if (cached !== undefined) {
      this.hits++;
      return cached;
    }
    this.misses++;
    const { cents } = await codemode.crm.price({ sku });
    this.prices.set(sku, cents);
    return cents;
  }
}

const cache = new PriceCache();
const skus: string[] = ["GIZMO", "WIDGET", "GIZMO", "GIZMO", "WIDGET"];
let sum = 0;
for (const sku of skus) sum += await cache.get(sku);
return { sum, hits: cache.hits, misses: cache.misses };
