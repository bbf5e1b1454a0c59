// expect: {"result":["o1010: Jan 15, 2024","o1011: Jun 1, 2024","o1012: Jun 2, 2024","o1013: Feb 28, 2024"]}
const { orders } = await codemode.crm.listOrders({ customerId: "c6" });
const fmt = new Intl.DateTimeFormat("en-US", { year: "numeric", month: "short", day: "numeric", timeZone: "UTC" });
return orders.map((o) => `${o.id}: ${fmt.format(new Date(o.createdAt))}`);
