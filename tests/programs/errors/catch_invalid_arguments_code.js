// expect: {"result":{"code":"invalid_arguments","operation":"crm.listCustomers"}}
try {
  await codemode.crm.listCustomers({ tier: "platinum" });
  return "accepted";
} catch (e) {
  return { code: e.code, operation: e.operation };
}
