// expect: {"result":["c2","c4","c6:o1010"]}
const { customers } = await codemode.crm.listCustomers({ country: "US" });
const result = [];
outer: for (const customer of customers) {
  const { orders } = await codemode.crm.listOrders({ customerId: customer.id });
  for (const order of orders) {
    if (order.status === "refunded") continue outer;
    if (order.quantity > 5) {
      result.push(`${customer.id}:${order.id}`);
      break outer;
    }
  }
  result.push(customer.id);
}
return result;
