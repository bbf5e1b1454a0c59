// expect: {"result":["o1015","o1016"]}
async function main() {
  const { orders } = await codemode.crm.listOrders({ customerId: "c8" });
  return orders.map((o) => o.id);
}
return await main();
