// expect: {"result":["ok","invalid_arguments","tool_failed","invalid_arguments","invalid_arguments"]}
const attempts = [
  () => codemode.crm.price({ sku: "WIDGET" }),
  () => codemode.crm.price({ sku: 42 }),
  () => codemode.crm.price({ sku: "LEGACY-1" }),
  () => codemode.crm.listOrders({ customerId: "c1", status: "shipped" }),
  () => codemode.crm.listOrders({}),
];
const codes = [];
for (const attempt of attempts) {
  try {
    await attempt();
    codes.push("ok");
  } catch (e) {
    codes.push(e.code);
  }
}
return codes;
