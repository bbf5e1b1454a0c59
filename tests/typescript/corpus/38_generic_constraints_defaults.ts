function groupBy<T, K extends PropertyKey = string>(
  items: readonly T[],
  keyOf: (item: T) => K,
): Record<K, T[]> {
  const out = {} as Record<K, T[]>;
  for (const item of items) {
    const k = keyOf(item);
    (out[k] ||= []).push(item);
  }
  return out;
}
function maxBy<const T extends { score: number }>(xs: T[]): T {
  return xs.reduce((a, b) => (b.score > a.score ? b : a));
}
({
  grouped: groupBy(["apple", "avocado", "banana"], (s) => s[0]),
  best: maxBy([{ score: 1 }, { score: 9 }, { score: 4 }]),
})
