// expect: {"result":{"latestId":"none","latestSku":null,"count":0}}
const { orders } = await codemode.crm.listOrders({ customerId: "c5" });
const latest = orders.at(-1);
return {
  latestId: latest?.id ?? "none",
  latestSku: latest?.sku?.toLowerCase() ?? null,
  count: orders?.length || 0,
};
