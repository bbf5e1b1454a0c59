// expect: {"error": {"code": "code_rejected", "name": "Error", "message": "could not build invoice for c3"}}
async function priceOf(sku) {
  try {
    return (await codemode.crm.price({ sku })).cents;
  } catch (e) {
    throw new Error(`no price for ${sku}`, { cause: e });
  }
}
const { orders } = await codemode.crm.listOrders({ customerId: "c3" });
try {
  let total = 0;
  for (const o of orders) total += (await priceOf(o.sku)) * o.quantity;
  return total;
} catch (e) {
  throw new Error("could not build invoice for c3", { cause: e });
}
