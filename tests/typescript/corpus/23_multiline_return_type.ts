const summarize = (
  values: number[],
):
  { min: number; max: number } => ({
  min: Math.min(...values),
  max: Math.max(...values),
});
const describe = (label: string)
  : string => label.trim();
[summarize([4, 1, 9]), describe("  x  ")]
