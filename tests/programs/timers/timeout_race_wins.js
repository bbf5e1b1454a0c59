// expect: {"result":["c1","c2","c6"]}
function withTimeout(promise, ms) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms}ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

const { customers } = await withTimeout(codemode.crm.listCustomers({ tier: "gold" }), 3000);
return customers.map((c) => c.id);
