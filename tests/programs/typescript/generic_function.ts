// expect: {"result":{"gold":3,"silver":3,"bronze":2}}
function groupBy<T, K extends string>(items: T[], key: (item: T) => K): Record<K, T[]> {
  const out = {} as Record<K, T[]>;
  for (const item of items) {
    const k = key(item);
    (out[k] ||= []).push(item);
  }
  return out;
}

const { customers } = await codemode.crm.listCustomers({});
const grouped = groupBy(customers, (c) => c.tier);
return Object.fromEntries(Object.entries(grouped).map(([tier, list]) => [tier, list.length]));
