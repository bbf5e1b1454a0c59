// expect: {"result":3}
const sleep = (ms: number): Promise<void> => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function fetchWithRetry<T>(fn: () => Promise<T>, retries: number = 2): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (retries <= 0) throw e;
    await sleep(30);
    return fetchWithRetry(fn, retries - 1);
  }
}

const { orders } = await fetchWithRetry(() => codemode.crm.listOrders({ customerId: "c3" }));
return orders.length;
