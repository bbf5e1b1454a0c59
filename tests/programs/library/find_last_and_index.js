// expect: {"result":{"lastPaid":"o1012","lastPaidIndex":2,"none":null}}
const { orders } = await codemode.crm.listOrders({ customerId: "c6" });
const lastPaid = orders.findLast((o) => o.status === "paid");
const lastPaidIndex = orders.findLastIndex((o) => o.status === "paid");
const none = orders.findLast((o) => o.quantity > 100);
return { lastPaid: lastPaid.id, lastPaidIndex, none: none ?? null };
