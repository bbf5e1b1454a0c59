// expect: {"result":{"counts":[2,-1],"steps":["start c2","end c2","start zz","end zz"]}}
const steps = [];
async function load(customerId) {
  steps.push(`start ${customerId}`);
  try {
    const { orders } = await codemode.crm.listOrders({ customerId });
    return orders.length;
  } catch {
    return -1;
  } finally {
    steps.push(`end ${customerId}`);
  }
}
const counts = [await load("c2"), await load("zz")];
return { counts, steps };
