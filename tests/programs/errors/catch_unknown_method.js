// expect: {"result":{"code":"unknown_method","suggestsListOrders":true}}
try {
  await codemode.crm.getOrders({ customerId: "c1" });
  return "called";
} catch (e) {
  return { code: e.code, suggestsListOrders: e.message.includes("listOrders") };
}
