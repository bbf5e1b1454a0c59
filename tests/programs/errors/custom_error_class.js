// expect: {"result":{"name":"NotFoundError","message":"customer c13 not found","causeCode":"tool_failed","isNotFound":true}}
class NotFoundError extends Error {
  constructor(what, cause) {
    super(`${what} not found`, { cause });
    this.name = "NotFoundError";
  }
}
async function getOrders(customerId) {
  try {
    return (await codemode.crm.listOrders({ customerId })).orders;
  } catch (e) {
    throw new NotFoundError(`customer ${customerId}`, e);
  }
}
try {
  await getOrders("c13");
} catch (e) {
  return { name: e.name, message: e.message, causeCode: e.cause.code, isNotFound: e instanceof NotFoundError };
}
