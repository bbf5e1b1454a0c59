async function double(x: number): Promise<number> {
  return x * 2;
}
const triple = async (x: number): Promise<number> => x * 3;
(async (): Promise<{ a: number; b: number }> => {
  const a: number = await double(21);
  const b = await triple(a);
  return { a, b };
})()
