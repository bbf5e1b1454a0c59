// expect: {"result":"GADGET"}
function run() {
  return codemode.crm.listOrders({ customerId: "c4" }).then((res) => res.orders[0].sku);
}
