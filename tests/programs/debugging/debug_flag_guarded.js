// expect: {"result":["o1005"]}
// expect: {"logs":["[debug] raw orders [\"o1004\",\"o1005\"]","[debug] pending 1"]}
const DEBUG = true;
const debug = (...args) => DEBUG && console.debug(...args);
const { orders } = await codemode.crm.listOrders({ customerId: "c2" });
debug("raw orders", orders.map((o) => o.id));
const pending = orders.filter((o) => o.status === "pending");
debug("pending", pending.length);
return pending.map((o) => o.id);
