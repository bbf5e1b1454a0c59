// expect: {"result":9473}
const skus = ["WIDGET", "GIZMO", "FLANGE", "SPROCKET", "GADGET"];
const total = await skus.reduce(
  async (accPromise, sku) => {
    const acc = await accPromise;
    const { cents } = await codemode.crm.price({ sku });
    return acc + cents;
  },
  Promise.resolve(0),
);
return total;
