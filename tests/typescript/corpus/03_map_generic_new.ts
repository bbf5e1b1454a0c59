type Tier = "gold" | "silver";
const counts = new Map<Tier, number>();
const tiers: Tier[] = ["gold", "silver", "gold"];
for (const tier of tiers) counts.set(tier, (counts.get(tier) ?? 0) + 1);
const sets = new Set<string>(["a", "b", "a"]);
({ counts: Object.fromEntries(counts), size: sets.size })
