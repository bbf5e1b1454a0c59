// expect: {"result":["Ada Lovelace","Grace Hopper","Barbara Liskov"]}
interface Customer {
  id: string;
  name: string;
  tier: "gold" | "silver" | "bronze";
  country: string;
}

const { customers } = await codemode.crm.listCustomers({});
const gold: Customer[] = customers.filter((c: Customer) => c.tier === "gold");
const names: string[] = gold.map((c: Customer): string => c.name);
return names;
