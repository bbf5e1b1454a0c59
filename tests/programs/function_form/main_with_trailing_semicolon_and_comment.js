// expect: {"result":{"cents":2100}}
async function main() {
  const { cents } = await codemode.crm.price({ sku: "FLANGE" });
  return { cents };
}; // entry point
