// expect: {"result": {"required": ["customerId"], "orders": 2}}
const info = codemode.help("crm.listOrders");
const required = info.inputSchema.required;
const args = Object.fromEntries(required.map((name) => [name, "c2"]));
const { orders } = await codemode.crm.listOrders(args);
return { required, orders: orders.length };
