type Fetched = { id: number; doubled: number };
const fetchOne = async (id: number): Promise<Fetched> => {
  await Promise.resolve();
  return { id, doubled: id * 2 };
};
async function fetchAll(ids: number[]): Promise<Fetched[]> {
  const results = await Promise.all(ids.map((id) => fetchOne(id)));
  return results.filter((r): r is Fetched => r.doubled > 2);
}
fetchAll([1, 2, 3])
