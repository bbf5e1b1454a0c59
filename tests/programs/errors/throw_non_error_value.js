// note: a thrown string or object is still reported; its text becomes the message.
// expect: {"error": {"code": "code_rejected", "messageIncludes": "quota exceeded"}}
const { customers } = await codemode.crm.listCustomers({});
if (customers.length > 5) {
  throw "quota exceeded: too many customers";
}
return customers;
