function risky(n: number): number {
  if (n > 2) throw new RangeError(`too big: ${n}`);
  return n;
}
const outcomes: Array<string | number> = [];
for (const n of [1, 3]) {
  try {
    outcomes.push(risky(n));
  } catch (error: unknown) {
    outcomes.push(error instanceof Error ? error.message : String(error));
  } finally {
    outcomes.push("done");
  }
}
outcomes
