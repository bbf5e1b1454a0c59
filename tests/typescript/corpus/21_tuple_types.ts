type Entry = [key: string, value: number, note?: string];
type Rest = [string, ...number[]];
const entries: Entry[] = [["a", 1], ["b", 2, "two"]];
const rest: Rest = ["r", 1, 2, 3];
const [head, ...nums] = rest;
const swapped = entries.map(([k, v]: Entry): [number, string] => [v, k]);
({ head, total: nums.reduce((a, b) => a + b, 0), swapped })
