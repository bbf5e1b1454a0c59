// expect: {"result":{"counts":[3,1],"invalid":["",null,17]}}
const requested = ["c1", "", null, "c4", 17];
const valid = requested.filter((id) => typeof id === "string" && /^c\d+$/.test(id));
const invalid = requested.filter((id) => !valid.includes(id));
const counts = [];
for (const customerId of valid) {
  const { orders } = await codemode.crm.listOrders({ customerId });
  counts.push(orders.length);
}
return { counts, invalid };
