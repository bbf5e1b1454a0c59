// expect: {"result":{"summary":"2 bronze customers","list":"Edsger Dijkstra and Linus Torvalds","relative":"yesterday","one":"1 customer"}}
const { customers } = await codemode.crm.listCustomers({ tier: "bronze" });
const pr = new Intl.PluralRules("en-US");
const noun = (n) => (pr.select(n) === "one" ? "customer" : "customers");
return {
  summary: `${customers.length} bronze ${noun(customers.length)}`,
  list: new Intl.ListFormat("en", { style: "long", type: "conjunction" }).format(customers.map((c) => c.name)),
  relative: new Intl.RelativeTimeFormat("en", { numeric: "auto" }).format(-1, "day"),
  one: `1 ${noun(1)}`,
};
