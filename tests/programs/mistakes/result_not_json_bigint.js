// expect: {"error": {"code": "code_rejected", "messageIncludes": "The result is not JSON"}}
const { customers } = await codemode.crm.listCustomers({});
return { count: BigInt(customers.length) };
