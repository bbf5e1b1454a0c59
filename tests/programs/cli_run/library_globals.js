// via: run
// expect: {"result":{"b64":"RWRzZ2VyIERpamtzdHJh","bytes":14,"url":"?q=Edsger+Dijkstra%7CLinus+Torvalds","sorted":["Linus Torvalds","Edsger Dijkstra"]}}
async (input, tools) => {
  const res = await tools.call("crm.listCustomers", { tier: "bronze" });
  const names = res.output.customers.map((c) => c.name);
  const url = new URL("https://crm.example.com/search");
  url.searchParams.set("q", names.join("|"));
  return {
    b64: btoa(names[0]),
    bytes: new TextEncoder().encode(names[1]).length,
    url: url.search,
    sorted: names.toSorted().toReversed(),
  };
}
