// expect: {"result":{"Ada Lovelace":3,"Grace Hopper":2,"Alan Turing":3,"Katherine Johnson":1,"Edsger Dijkstra":0,"Barbara Liskov":4,"Linus Torvalds":1,"Margaret Hamilton":2}}
function chunk<T>(xs: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < xs.length; i += size) out.push(xs.slice(i, i + size));
  return out;
}

const { customers } = await codemode.crm.listCustomers({});
const perCustomer: Record<string, number> = {};
for (const group of chunk(customers, 4)) {
  const lists = await Promise.all(group.map((c) => codemode.crm.listOrders({ customerId: c.id })));
  group.forEach((c, i) => (perCustomer[c.name] = lists[i].orders.length));
}
return perCustomer;
