// expect: {"result":{"ticks":3,"seen":["Edsger Dijkstra"]}}
let ticks = 0;
const seen = [];
await new Promise((resolve) => {
  const id = setInterval(async () => {
    ticks++;
    if (ticks === 3) {
      clearInterval(id);
      const { customers } = await codemode.crm.listCustomers({ country: "NL" });
      seen.push(...customers.map((c) => c.name));
      resolve();
    }
  }, 20);
});
return { ticks, seen };
