// expect: {"result":{"ids":["o1009"],"count":1,"qty":2}}
const raw = (await codemode.crm.listOrders({ customerId: "c4" })) as unknown as { orders: Array<{ id: string; quantity: number }> };
const ids = raw.orders.map((o) => o.id) as string[];
const count = (raw.orders.length as number) + 0;
return { ids, count, qty: raw.orders[0].quantity as number };
