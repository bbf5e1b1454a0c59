// expect: {"result":["WIDGET","GADGET"]}
// expect: {"logs":["[error] failed to price LEGACY-1: tool_failed","[error] failed to price UNKNOWN: tool_failed"]}
const skus = ["WIDGET", "LEGACY-1", "UNKNOWN", "GADGET"];
const ok = [];
for (const sku of skus) {
  try {
    const p = await codemode.crm.price({ sku });
    ok.push(p.sku);
  } catch (err) {
    console.error(`failed to price ${sku}: ${err.code}`);
  }
}
return ok;
