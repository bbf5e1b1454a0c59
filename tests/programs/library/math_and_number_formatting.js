// expect: {"result":{"mean":1843.25,"sd":1851,"max":4999,"dollars":["12.50","49.99","7.99","3.25"],"parsed":19.5}}
const skus = ["WIDGET", "GADGET", "GIZMO", "SPROCKET"];
const cents = [];
for (const sku of skus) cents.push((await codemode.crm.price({ sku })).cents);
const mean = cents.reduce((a, b) => a + b, 0) / cents.length;
const sd = Math.sqrt(cents.reduce((a, c) => a + (c - mean) ** 2, 0) / cents.length);
return {
  mean: Number(mean.toFixed(2)),
  sd: Math.round(sd),
  max: Math.max(...cents),
  dollars: cents.map((c) => (c / 100).toFixed(2)),
  parsed: Number.parseFloat("12.50abc") + parseInt("7px", 10),
};
