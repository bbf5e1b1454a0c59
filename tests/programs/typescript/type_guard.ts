// expect: {"result":{"total":7099,"missing":["LEGACY-1"]}}
type Ok = { kind: "ok"; cents: number };
type Missing = { kind: "missing"; sku: string };
type Lookup = Ok | Missing;

function isOk(x: Lookup): x is Ok {
  return x.kind === "ok";
}

async function lookup(sku: string): Promise<Lookup> {
  try {
    const { cents } = await codemode.crm.price({ sku });
    return { kind: "ok", cents };
  } catch {
    return { kind: "missing", sku };
  }
}

const results: Lookup[] = [];
for (const sku of ["FLANGE", "LEGACY-1", "GADGET"]) results.push(await lookup(sku));
return {
  total: results.filter(isOk).reduce((n, r) => n + r.cents, 0),
  missing: results.filter((r): r is Missing => !isOk(r)).map((r) => r.sku),
};
