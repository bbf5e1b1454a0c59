// expect: {"result":{"depth":0,"left":{"depth":1,"left":["c1","c2"],"right":["c3","c4"]},"right":{"depth":1,"left":["c5","c6"],"right":["c7","c8"]}}}
const { customers } = await codemode.crm.listCustomers({});
function buildTree(items, depth = 0) {
  if (items.length <= 2) return items.map((c) => c.id);
  const mid = Math.floor(items.length / 2);
  return { depth, left: buildTree(items.slice(0, mid), depth + 1), right: buildTree(items.slice(mid), depth + 1) };
}
return buildTree(customers);
