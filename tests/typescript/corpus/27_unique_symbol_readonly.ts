const tag: unique symbol = Symbol("tag");
interface Tagged {
  readonly [tag]: string;
  readonly values: readonly number[];
}
const t: Tagged = { [tag]: "t", values: [1, 2] };
const ro: ReadonlyArray<number> = t.values;
[t[tag], ro.length]
