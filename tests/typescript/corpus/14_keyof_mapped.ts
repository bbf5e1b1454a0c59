type Flags<T> = { [K in keyof T]: boolean };
type ReadonlyPartial<T> = { readonly [K in keyof T]?: T[K] };
interface Settings {
  dark: string;
  compact: string;
}
const keys = ["dark", "compact"] as Array<keyof Settings>;
const flags = Object.fromEntries(keys.map((k) => [k, k.length > 4])) as Flags<Settings>;
const partial: ReadonlyPartial<Settings> = { dark: "yes" };
({ flags, partial })
