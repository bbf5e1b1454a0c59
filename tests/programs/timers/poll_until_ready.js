// expect: {"result":{"polls":3,"status":"ready"}}
let polls = 0;
async function checkStatus() {
  polls++;
  const { orders } = await codemode.crm.listOrders({ customerId: "c7" });
  return polls >= 3 ? "ready" : orders[0].status;
}
let status = await checkStatus();
while (status !== "ready") {
  await new Promise((r) => setTimeout(r, 40));
  status = await checkStatus();
}
return { polls, status };
