// expect: {"result":"none"}
const { orders } = await codemode.crm.listOrders({ customerId: "c5" });
let sku;
try {
  sku = orders[0].sku;
} catch (e) {
  sku = e instanceof TypeError ? "none" : "other";
}
return sku;
