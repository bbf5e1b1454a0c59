// expect: {"result":{"total":15749,"cachedSkus":["GADGET","SPROCKET","WIDGET"]}}
const cache = {};
async function priceOf(sku) {
  cache[sku] ??= (await codemode.crm.price({ sku })).cents;
  return cache[sku];
}
const { orders } = await codemode.crm.listOrders({ customerId: "c1" });
const more = await codemode.crm.listOrders({ customerId: "c7" });
let total = 0;
for (const o of [...orders, ...more.orders]) total += (await priceOf(o.sku)) * o.quantity;
return { total, cachedSkus: Object.keys(cache).sort() };
