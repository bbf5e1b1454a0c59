// note: 1 + 8 + 6 = 15 calls, two fan-outs.
// expect: {"result":{"orders":11,"skus":6,"revenueCents":58338}}
const { customers } = await codemode.crm.listCustomers({});
const orderLists = await Promise.all(customers.map((c) => codemode.crm.listOrders({ customerId: c.id, status: "paid" })));
const orders = orderLists.flatMap((r) => r.orders);
const skus = [...new Set(orders.map((o) => o.sku))].filter((s) => s !== "LEGACY-1");
const priceList = await Promise.all(skus.map((sku) => codemode.crm.price({ sku })));
const priceBySku = Object.fromEntries(priceList.map((p) => [p.sku, p.cents]));
const revenue = orders.reduce((sum, o) => sum + (priceBySku[o.sku] ?? 0) * o.quantity, 0);
return { orders: orders.length, skus: skus.length, revenueCents: revenue };
