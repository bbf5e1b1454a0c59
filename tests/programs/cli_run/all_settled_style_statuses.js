// via: run
// expect: {"result":["c1:succeeded","c2:succeeded","nope:failed","c4:succeeded"]}
async (input, tools) => {
  const ids = ["c1", "c2", "nope", "c4"];
  const results = await Promise.all(ids.map((customerId) => tools.call("crm.listOrders", { customerId })));
  return results.map((r, i) => `${ids[i]}:${r.status}`);
}
