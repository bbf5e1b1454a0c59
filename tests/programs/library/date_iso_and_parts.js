// expect: {"result":{"latest":"2024-03-30T18:45:00.000Z","month":3,"weekday":6,"year":2024,"plus30":"2024-04-29"}}
const { orders } = await codemode.crm.listOrders({ customerId: "c3" });
const dates = orders.map((o) => new Date(o.createdAt));
const latest = new Date(Math.max(...dates));
return {
  latest: latest.toISOString(),
  month: latest.getUTCMonth() + 1,
  weekday: latest.getUTCDay(),
  year: latest.getUTCFullYear(),
  plus30: new Date(latest.getTime() + 30 * 864e5).toISOString().slice(0, 10),
};
