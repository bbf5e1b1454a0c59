// via: run
// note: console is there in the model profile even when nothing captures it.
// expect: {"result":2}
async (input, tools) => {
  console.log("starting with input", input);
  const res = await tools.call("crm.listCustomers", { country: "GB" });
  console.info("status", res.status);
  return res.output.customers.length;
}
