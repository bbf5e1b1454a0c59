// expect: {"result":[["o1014"],"tool_failed"]}
const safe = (p) => p.then((value) => ({ ok: true, value }), (error) => ({ ok: false, code: error.code }));
const results = [];
for (const customerId of ["c7", "c0"]) {
  results.push(await safe(codemode.crm.listOrders({ customerId })));
}
return results.map((r) => (r.ok ? r.value.orders.map((o) => o.id) : r.code));
