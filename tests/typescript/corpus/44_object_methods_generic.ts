const utils = {
  wrap<T>(value: T): { value: T } {
    return { value };
  },
  async later(ms: number): Promise<number> {
    return ms;
  },
  get size(): number {
    return 3;
  },
  *pairs<K extends string>(keys: K[]): Generator<[K, number]> {
    for (const [i, k] of keys.entries()) yield [k, i];
  },
};
({ w: utils.wrap<number>(5), size: utils.size, pairs: [...utils.pairs(["a", "b"])] })
