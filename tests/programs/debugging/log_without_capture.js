// note: console is there even when the host does not capture it; the lines go nowhere.
// expect: {"result":4}
console.log("listing customers");
const { customers } = await codemode.crm.listCustomers({ country: "US" });
console.log("customers:", customers.map((c) => c.id));
console.warn("this is only a warning");
return customers.length;
