// expect: {"result":[3,2,3]}
const ids = ["c1", "c2", "c3"];
const counts = await Promise.all(
  ids.map(async (customerId) => {
    const { orders } = await codemode.crm.listOrders({ customerId });
    console.log(customerId, "has", orders.length, "orders");
    return orders.length;
  }),
);
return counts;
