// expect: {"result":{"found":"Grace Hopper","checked":2}}
const { customers } = await codemode.crm.listCustomers({});
let i = 0;
let found = null;
while (i < customers.length && !found) {
  const { orders } = await codemode.crm.listOrders({ customerId: customers[i].id });
  if (orders.some((o) => o.sku === "DOOHICKEY")) found = customers[i].name;
  i++;
}
return { found, checked: i };
