// expect: {"result":{"text":127,"parsed":[{"id":"o1015","quantity":6,"createdAt":"2024-03"},{"id":"o1016","quantity":1,"createdAt":"2024-04"}]}}
const { orders } = await codemode.crm.listOrders({ customerId: "c8" });
const text = JSON.stringify(orders, ["id", "quantity", "createdAt"]);
const parsed = JSON.parse(text, (key, value) => (key === "createdAt" ? value.slice(0, 7) : value));
return { text: text.length, parsed };
