// expect: {"result":{"success":true,"priced":[{"id":"o1004","cents":15000},{"id":"o1005","cents":2397}]}}
async function main() {
  try {
    const { orders } = await codemode.crm.listOrders({ customerId: "c2" });
    const priced = [];
    for (const o of orders) priced.push({ id: o.id, cents: (await codemode.crm.price({ sku: o.sku })).cents * o.quantity });
    return { success: true, priced };
  } catch (error) {
    return { success: false, error: error.message };
  }
}
return await main();
