// note: the library-level tools.call is still there in code mode, and answers {status, output} (failures: {status, error} with the library's code).
// expect: {"result":15000}
async () => {
  const res = await tools.call("crm.price", { sku: "DOOHICKEY" });
  return res.status === "succeeded" ? res.output.cents : null;
}
