// via: run
// input: {"tier": "silver"}
// expect: {"result":["Alan Turing","Katherine Johnson","Margaret Hamilton"]}
async (input: { tier: "gold" | "silver" | "bronze" }, tools: any): Promise<string[]> => {
  type Customer = { id: string; name: string };
  const res = await tools.call("crm.listCustomers", { tier: input.tier });
  const customers: Customer[] = res.output.customers;
  return customers.map((c: Customer) => c.name);
}
