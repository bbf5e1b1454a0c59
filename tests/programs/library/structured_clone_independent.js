// expect: {"result":{"original":4,"copy":999,"dateKept":true,"setKept":true}}
const { orders } = await codemode.crm.listOrders({ customerId: "c1" });
const copy = structuredClone(orders);
copy[0].quantity = 999;
const withDate = structuredClone({ when: new Date(Date.UTC(2024, 0, 5)), skus: new Set(["A"]) });
return {
  original: orders[0].quantity,
  copy: copy[0].quantity,
  dateKept: withDate.when instanceof Date,
  setKept: withDate.skus instanceof Set && withDate.skus.has("A"),
};
