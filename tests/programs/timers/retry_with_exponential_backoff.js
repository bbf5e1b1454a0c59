// expect: {"result":{"widget":1250,"legacy":{"failed":"tool_failed"}}}
async function withRetry(fn, { retries = 3, baseDelayMs = 20 } = {}) {
  let lastError;
  for (let attempt = 0; attempt <= retries; attempt++) {
    try {
      return await fn();
    } catch (err) {
      lastError = err;
      if (attempt === retries) break;
      const delay = baseDelayMs * 2 ** attempt;
      await new Promise((r) => setTimeout(r, delay));
    }
  }
  throw lastError;
}

const widget = await withRetry(() => codemode.crm.price({ sku: "WIDGET" }));
let legacy;
try {
  legacy = await withRetry(() => codemode.crm.price({ sku: "LEGACY-1" }), { retries: 2 });
} catch (e) {
  legacy = { failed: e.code };
}
return { widget: widget.cents, legacy };
