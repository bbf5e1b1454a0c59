// expect: {"result":{"token":"YzEsYzIsYzY=","decoded":"c1,c2,c6"}}
const { customers } = await codemode.crm.listCustomers({ tier: "gold" });
const token = btoa(customers.map((c) => c.id).join(","));
const decoded = atob(token);
return { token, decoded };
