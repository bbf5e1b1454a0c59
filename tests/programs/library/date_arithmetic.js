// expect: {"result":{"newest":{"id":"c7","days":154},"over1000":["c1","c2","c6"]}}
const { customers } = await codemode.crm.listCustomers({});
const asOf = new Date("2024-06-30T00:00:00Z");
const DAY = 24 * 60 * 60 * 1000;
const tenure = customers.map((c) => ({
  id: c.id,
  days: Math.floor((asOf - new Date(c.since + "T00:00:00Z")) / DAY),
}));
const newest = tenure.reduce((a, b) => (a.days < b.days ? a : b));
return { newest, over1000: tenure.filter((t) => t.days > 1000).map((t) => t.id) };
