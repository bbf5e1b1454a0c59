interface Sale {
  region: string;
  amount: number;
}
const sales: Sale[] = [
  { region: "north", amount: 10 },
  { region: "south", amount: 5 },
  { region: "north", amount: 7 },
];
const byRegion = sales.reduce<Record<string, Sale[]>>((acc, sale) => {
  (acc[sale.region] ??= []).push(sale);
  return acc;
}, {});
const sums = Object.entries(byRegion).map(([region, list]): [string, number] => [
  region,
  list.reduce((t, s) => t + s.amount, 0),
]);
Object.fromEntries(sums)
