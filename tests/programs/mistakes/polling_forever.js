// note: an interval that never finds what it waits for.
// expect: {"error": {"code": "deadline_exceeded"}}
await new Promise((resolve) => {
  setInterval(async () => {
    const { orders } = await codemode.crm.listOrders({ customerId: "c5" });
    if (orders.length > 0) resolve();
  }, 1000);
});
return "found";
