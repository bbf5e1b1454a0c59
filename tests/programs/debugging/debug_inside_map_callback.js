// expect: {"result":["ED","LT"]}
// expect: {"logs":["name parts [\"Edsger\",\"Dijkstra\"]","name parts [\"Linus\",\"Torvalds\"]"]}
const { customers } = await codemode.crm.listCustomers({ tier: "bronze" });
const initials = customers.map((c) => {
  const parts = c.name.split(" ");
  console.log("name parts", parts);
  return parts.map((p) => p[0]).join("");
});
return initials;
