// expect: {"result":{"attempts":3,"delays":[25,50],"orders":2}}
let calls = 0;
async function flakyListOrders(customerId) {
  calls++;
  if (calls < 3) {
    const e = new Error("503 Service Unavailable");
    e.code = "unavailable";
    throw e;
  }
  return codemode.crm.listOrders({ customerId });
}

const delays = [];
let result;
for (let attempt = 1; attempt <= 5; attempt++) {
  try {
    result = await flakyListOrders("c8");
    break;
  } catch (err) {
    if (err.code !== "unavailable") throw err;
    const wait = 25 * attempt;
    delays.push(wait);
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
}
return { attempts: calls, delays, orders: result.orders.length };
