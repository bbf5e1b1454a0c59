// via: run
// expect: {"result":[2,1]}
async (input, tools) => {
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  const out = [];
  for (const customerId of ["c2", "c4"]) {
    const res = await tools.call("crm.listOrders", { customerId });
    out.push(res.output.orders.length);
    await sleep(40);
  }
  return out;
}
