type ElementOf<T> = T extends readonly (infer U)[] ? U : never;
type Unwrap<T> = T extends Promise<infer V> ? Unwrap<V> : T;
type IsString<T> = T extends string ? "yes" : "no";
const pick = <T extends readonly unknown[]>(xs: T, i: number): ElementOf<T> => xs[i] as ElementOf<T>;
const answer: IsString<"a"> = "yes";
const value: Unwrap<Promise<number>> = 42;
[pick([10, 20, 30], 1), answer, value]
