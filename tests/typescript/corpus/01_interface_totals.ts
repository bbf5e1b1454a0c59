// Totals per tier from a list of orders.
interface Order {
  id: string;
  tier: "gold" | "silver" | "bronze";
  cents: number;
  note?: string;
}

const orders: Order[] = [
  { id: "a1", tier: "gold", cents: 1200 },
  { id: "a2", tier: "silver", cents: 800, note: "rush" },
  { id: "a3", tier: "gold", cents: 300 },
];

const totals: Record<string, number> = {};
for (const order of orders) {
  totals[order.tier] = (totals[order.tier] ?? 0) + order.cents;
}
totals
