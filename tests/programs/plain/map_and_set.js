// expect: {"result":{"gold":["c1","c2","c6"],"silver":["c3","c4","c8"],"bronze":["c5","c7"]}}
const { customers } = await codemode.crm.listCustomers({});
const tiers = new Map();
for (const { tier, id } of customers) {
  if (!tiers.has(tier)) tiers.set(tier, new Set());
  tiers.get(tier).add(id);
}
return Object.fromEntries([...tiers].map(([tier, ids]) => [tier, [...ids]]));
