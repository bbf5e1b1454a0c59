// expect: {"result":[3,2,3,1]}
const ids = ["c1", "c2", "c3", "c4"];
const results = await Promise.all(
  ids.map((customerId, i) =>
    new Promise((resolve) => setTimeout(resolve, i * 25)).then(() =>
      codemode.crm.listOrders({ customerId }).then((r) => r.orders.length),
    ),
  ),
);
return results;
