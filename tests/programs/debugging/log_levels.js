// expect: {"result":799}
// expect: {"logs":["[info] starting","[debug] looking up GIZMO","[warn] cheap item: 799","[error] price failed: tool_failed"]}
console.info("starting");
console.debug("looking up", "GIZMO");
const { cents } = await codemode.crm.price({ sku: "GIZMO" });
if (cents < 1000) console.warn("cheap item:", cents);
try {
  await codemode.crm.price({ sku: "LEGACY-1" });
} catch (e) {
  console.error("price failed:", e.code);
}
return cents;
