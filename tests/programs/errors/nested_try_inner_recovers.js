// expect: {"result":["inner tool_failed","recovered 1250","outer tool_failed"]}
let log = [];
try {
  try {
    await codemode.crm.price({ sku: "LEGACY-1" });
  } catch (inner) {
    log.push("inner " + inner.code);
    const { cents } = await codemode.crm.price({ sku: "WIDGET" });
    log.push("recovered " + cents);
  }
  await codemode.crm.listOrders({ customerId: "missing" });
} catch (outer) {
  log.push("outer " + outer.code);
}
return log;
