// expect: {"result":{"gold":3,"silver":3,"bronze":2}}
const TIERS = ["gold", "silver", "bronze"] as const;
type Tier = (typeof TIERS)[number];

const counts = {} as Record<Tier, number>;
for (const tier of TIERS) {
  const { customers } = await codemode.crm.listCustomers({ tier });
  counts[tier] = customers.length;
}
return counts;
