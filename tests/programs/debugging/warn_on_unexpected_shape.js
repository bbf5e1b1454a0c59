// expect: {"result":3}
// expect: {"logs":["[warn] expected an array, got keys: [\"customers\"]"]}
const res = await codemode.crm.listCustomers({ tier: "silver" });
if (!Array.isArray(res)) {
  console.warn("expected an array, got keys:", Object.keys(res));
}
const list = Array.isArray(res) ? res : res.customers;
return list.length;
