// note: called with no arguments, so defaults apply.
// expect: {"result":{"customerId":"c6","status":"paid","ids":["o1010","o1012"]}}
async function main(customerId = "c6", status = "paid") {
  const { orders } = await codemode.crm.listOrders({ customerId, status });
  return { customerId, status, ids: orders.map((o) => o.id) };
}
