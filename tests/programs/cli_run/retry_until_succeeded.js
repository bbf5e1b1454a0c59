// via: run
// expect: {"result":["succeeded",1,"failed",3]}
async (input, tools) => {
  async function callWithRetry(id, args, attempts = 3) {
    let last;
    for (let i = 0; i < attempts; i++) {
      last = await tools.call(id, args);
      if (last.status === "succeeded") return { ...last, attempts: i + 1 };
      await new Promise((r) => setTimeout(r, 20 * (i + 1)));
    }
    return { ...last, attempts };
  }
  const good = await callWithRetry("crm.price", { sku: "WIDGET" });
  const bad = await callWithRetry("crm.price", { sku: "NOPE" });
  return [good.status, good.attempts, bad.status, bad.attempts];
}
