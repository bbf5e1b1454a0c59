// expect: {"result":"Alan Turing (GB) and Grace Hopper"}
const { customers } = await codemode.crm.listCustomers({});
const byId = new Map<string, { name: string; country: string }>();
for (const c of customers) byId.set(c.id, c);

const turing = byId.get("c3")!;
const hopper = byId.get("c2")!.name;
return `${turing.name} (${turing.country}) and ${hopper}`;
