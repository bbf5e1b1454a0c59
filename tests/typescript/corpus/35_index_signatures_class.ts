class Registry {
  [name: string]: unknown;
  static [key: string]: unknown;
  register(name: string, value: unknown): this {
    this[name] = value;
    return this;
  }
}
const r = new Registry().register("a", 1).register("b", "two");
[r["a"], r["b"]]
