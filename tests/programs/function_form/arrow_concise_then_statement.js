// note: an arrow followed by a statement is a body: the arrow is an unused expression, and the body returns.
// expect: {"result":8}
const getCount = async () => (await codemode.crm.listCustomers({})).customers.length;
return await getCount();
