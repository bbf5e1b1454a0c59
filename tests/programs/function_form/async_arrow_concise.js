// expect: {"result":1598}
async () => (await codemode.crm.price({ sku: "GIZMO" })).cents * 2
