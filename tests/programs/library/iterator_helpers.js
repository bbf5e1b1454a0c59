// expect: {"result":{"firstTwoUs":["Grace Hopper","Katherine Johnson"],"counted":["c7","c8"]}}
const { customers } = await codemode.crm.listCustomers({});
const firstTwoUs = customers
  .values()
  .filter((c) => c.country === "US")
  .map((c) => c.name)
  .take(2)
  .toArray();
const counted = new Map(customers.map((c) => [c.id, c.tier])).keys().drop(6).toArray();
return { firstTwoUs, counted };
