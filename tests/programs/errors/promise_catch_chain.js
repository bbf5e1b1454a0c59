// expect: {"result":[0,799]}
const price = await codemode.crm
  .price({ sku: "NOT-A-SKU" })
  .then((p) => p.cents)
  .catch((e) => (e.code === "tool_failed" ? 0 : -1));
const other = await codemode.crm.price({ sku: "GIZMO" }).then((p) => p.cents, () => -1);
return [price, other];
