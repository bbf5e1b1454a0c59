// expect: {"result":{"gold":["c1","c2","c6"],"silver":["c3","c4","c8"],"bronze":["c5","c7"]}}
const { customers } = await codemode.crm.listCustomers({});
const byTier = Object.groupBy(customers, (c) => c.tier);
return Object.fromEntries(Object.entries(byTier).map(([tier, list]) => [tier, list.map((c) => c.id)]));
