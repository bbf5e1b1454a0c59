// expect: {"result":5150}
function toCents(value: number): number;
function toCents(value: string): number;
function toCents(value: number | string): number {
  return typeof value === "number" ? Math.round(value * 100) : Math.round(parseFloat(value) * 100);
}

const { cents } = await codemode.crm.price({ sku: "GADGET" });
return cents + toCents(0.01) + toCents("1.50");
