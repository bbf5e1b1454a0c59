// expect: {"result":"Silver customers (3)\n1. Alan Turing       |GB\n2. Katherine Johnson |US\n3. Margaret Hamilton |US"}
const { customers } = await codemode.crm.listCustomers({ tier: "silver" });
const rows = customers.map((c, i) => `${i + 1}. ${c.name.padEnd(18)}|${c.country}`);
return [`Silver customers (${customers.length})`, ...rows].join("\n");
