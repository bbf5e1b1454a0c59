type Result<T, E = string> =
  | { ok: true; value: T }
  | { ok: false; error: E };

function divide(a: number, b: number): Result<number> {
  if (b === 0) return { ok: false, error: "division by zero" };
  return { ok: true, value: a / b };
}
const results: Result<number>[] = [divide(6, 3), divide(1, 0)];
results.map((r) => (r.ok ? r.value : r.error))
