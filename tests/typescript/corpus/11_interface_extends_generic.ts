interface Named {
  name: string;
}
interface Priced<C extends string = "USD"> extends Named {
  price: number;
  currency: C;
  tags: Array<string>;
  [extra: string]: unknown;
}
const items: Priced[] = [
  { name: "pen", price: 2, currency: "USD", tags: ["office"] },
  { name: "ink", price: 5, currency: "USD", tags: [] },
];
const cheapest = items.reduce<Priced | null>(
  (best, item) => (best === null || item.price < best.price ? item : best),
  null,
);
cheapest?.name
