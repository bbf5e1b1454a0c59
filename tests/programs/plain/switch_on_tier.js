// expect: {"result":[{"id":"c1","discount":0.15},{"id":"c2","discount":0.15},{"id":"c3","discount":0.1},{"id":"c4","discount":0.1},{"id":"c5","discount":0},{"id":"c6","discount":0.15},{"id":"c7","discount":0},{"id":"c8","discount":0.1}]}
function discountFor(tier) {
  switch (tier) {
    case "gold":
      return 0.15;
    case "silver":
      return 0.1;
    default:
      return 0;
  }
}
const { customers } = await codemode.crm.listCustomers({});
return customers.map((c) => ({ id: c.id, discount: discountFor(c.tier) }));
