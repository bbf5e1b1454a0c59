// expect: {"result":8}
const yieldToEventLoop = () => new Promise((resolve) => setTimeout(resolve, 0));
const { customers } = await codemode.crm.listCustomers({});
let processed = 0;
for (let i = 0; i < customers.length; i++) {
  processed++;
  if (i % 3 === 2) await yieldToEventLoop();
}
return processed;
