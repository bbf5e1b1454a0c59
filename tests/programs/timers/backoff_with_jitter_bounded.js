// expect: {"result":{"gaveUp":true,"code":"tool_failed"}}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
async function retry(fn, attempts = 4) {
  for (let i = 0; ; i++) {
    try {
      return await fn();
    } catch (error) {
      if (i + 1 >= attempts || error.code !== "tool_failed") throw error;
      const backoff = Math.min(100, 10 * 2 ** i) + Math.floor(Math.random() * 10);
      await sleep(backoff);
    }
  }
}
try {
  await retry(() => codemode.crm.listOrders({ customerId: "c404" }), 3);
  return "unexpected";
} catch (error) {
  return { gaveUp: true, code: error.code };
}
