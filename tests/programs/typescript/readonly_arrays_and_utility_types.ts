// expect: {"result":{"contacts":[{"name":"Alan Turing","email":"alan@example.com"},{"name":"Katherine Johnson","email":"katherine@example.com"},{"name":"Margaret Hamilton","email":"margaret@example.com"}],"blankKeys":0}}
type Customer = { id: string; name: string; tier: string; country: string; email: string };
type Contact = Pick<Customer, "name" | "email">;
type PartialCustomer = Partial<Customer>;

const { customers } = await codemode.crm.listCustomers({ tier: "silver" });
const contacts: ReadonlyArray<Contact> = customers.map(({ name, email }): Contact => ({ name, email }));
const blank: PartialCustomer = {};
return { contacts, blankKeys: Object.keys(blank).length };
