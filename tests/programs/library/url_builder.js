// expect: {"result":{"href":"https://crm.example.com/reports/customers?country=US&ids=c2%2Cc4%2Cc6%2Cc8&note=gold+%26+silver","host":"crm.example.com","path":"/reports/customers"}}
const { customers } = await codemode.crm.listCustomers({ country: "US" });
const url = new URL("https://crm.example.com/reports/customers");
url.searchParams.set("country", "US");
url.searchParams.append("ids", customers.map((c) => c.id).join(","));
url.searchParams.set("note", "gold & silver");
return { href: url.toString(), host: url.host, path: url.pathname };
