// expect: {"result":[["paid",2],["pending",1],["refunded",1]]}
const { orders } = await codemode.crm.listOrders({ customerId: "c6" });
const byStatus = Map.groupBy(orders, (o) => o.status);
return [...byStatus.entries()].map(([status, list]) => [status, list.length]);
