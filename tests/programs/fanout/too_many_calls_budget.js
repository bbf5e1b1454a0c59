// note: 20 calls in one Promise.all: the 17th passes the 16-call budget, and rethrown it stays host_calls_limit.
// expect: {"error": {"code": "host_calls_limit", "message": "host-call budget exhausted"}}
const skus = Array.from({ length: 20 }, (_, i) => ["WIDGET", "GADGET", "GIZMO", "FLANGE"][i % 4]);
const prices = await Promise.all(skus.map((sku) => codemode.crm.price({ sku })));
return prices.length;
