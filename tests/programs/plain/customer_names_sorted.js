// expect: {"result":["Ada Lovelace","Alan Turing","Barbara Liskov","Edsger Dijkstra","Grace Hopper","Katherine Johnson","Linus Torvalds","Margaret Hamilton"]}
const { customers } = await codemode.crm.listCustomers({});
const names = customers.map(c => c.name).sort((a, b) => a.localeCompare(b));
return names;
