// expect: {"result":["Grace Hopper — Gold member","Katherine Johnson — Silver member","Barbara Liskov — Gold member","Margaret Hamilton — Silver member"]}
const labels = {
  gold: "Gold member",
  silver: "Silver member",
  bronze: "Bronze member",
};
type TierKey = keyof typeof labels;

const { customers } = await codemode.crm.listCustomers({ country: "US" });
return customers.map((c) => `${c.name} — ${labels[c.tier as TierKey]}`);
