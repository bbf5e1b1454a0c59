// note: the block never closes; the engine notices only at the end of the text, so no line is asserted.
// expect: {"error": {"code": "code_rejected", "name": "SyntaxError"}}
const { customers } = await codemode.crm.listCustomers({});
for (const c of customers) {
  if (c.tier === "gold") {
    console.log(c.name);
}
return customers.length;
