// expect: {"result":{"all":9,"refunded":2,"rate":0.222}}
const ids = ["c1", "c2", "c6"];
let all = 0;
let refunded = 0;
for (const customerId of ids) {
  const { orders } = await codemode.crm.listOrders({ customerId });
  all += orders.length;
  refunded += orders.filter((o) => o.status === "refunded").length;
}
return { all, refunded, rate: Math.round((refunded / all) * 1000) / 1000 };
