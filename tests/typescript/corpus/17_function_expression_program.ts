async (input: { n: number; items?: string[] }, tools?: unknown): Promise<{ total: number }> => {
  interface Line {
    qty: number;
    price: number;
  }
  const lines: Line[] = Array.from({ length: input.n }, (_, i): Line => ({ qty: i + 1, price: 10 }));
  const total = lines.reduce((sum: number, l: Line) => sum + l.qty * l.price, 0);
  return { total };
}
