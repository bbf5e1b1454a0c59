// note: waits for a timer that fires after the program's 5 s: the wall limit ends it.
// expect: {"error": {"code": "deadline_exceeded"}}
const { customers } = await codemode.crm.listCustomers({});
await new Promise((resolve) => setTimeout(resolve, 60000));
return customers.length;
