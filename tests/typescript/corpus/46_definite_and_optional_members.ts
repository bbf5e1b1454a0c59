class Lazy {
  value!: number;
  cache?: Map<string, number>;
  optional?(): string;
  init(): this {
    this.value = 7;
    this.cache = new Map<string, number>([["k", 1]]);
    return this;
  }
}
const lazy = new Lazy().init();
[lazy.value, lazy.cache?.get("k"), typeof lazy.optional]
