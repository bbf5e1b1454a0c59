// expect: {"result":[{"ok":true,"value":2100},{"ok":false,"error":"tool_failed"}]}
interface Result<T> {
  ok: boolean;
  value?: T;
  error?: string;
}

async function attempt<T>(fn: () => Promise<T>): Promise<Result<T>> {
  try {
    return { ok: true, value: await fn() };
  } catch (e: any) {
    return { ok: false, error: e.code };
  }
}

const a: Result<number> = await attempt(async () => (await codemode.crm.price({ sku: "FLANGE" })).cents);
const b: Result<number> = await attempt(async () => (await codemode.crm.price({ sku: "NOPE" })).cents);
return [a, b];
