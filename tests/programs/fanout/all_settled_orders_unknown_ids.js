// expect: {"result":{"ok":["c1","c2","c3"],"failed":["c9","x","c10"]}}
const ids = ["c1", "c9", "c2", "x", "c3", "c10"];
const results = await Promise.allSettled(ids.map((customerId) => codemode.crm.listOrders({ customerId })));
const ok = [];
const failed = [];
results.forEach((r, i) => (r.status === "fulfilled" ? ok : failed).push(ids[i]));
return { ok, failed };
