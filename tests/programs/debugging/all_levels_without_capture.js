// expect: {"result":["FLANGE","WIDGET","LEGACY-1"]}
console.info("info");
console.debug("debug");
console.error("error");
const { orders } = await codemode.crm.listOrders({ customerId: "c3", status: "paid" });
console.log(JSON.stringify(orders, null, 2));
return orders.map((o) => o.sku);
