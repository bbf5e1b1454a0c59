// expect: {"result":{"untouched":"Ada Lovelace","sorted":["Ada Lovelace","Alan Turing","Barbara Liskov"],"reversed":["Margaret Hamilton","Linus Torvalds"]}}
const { customers } = await codemode.crm.listCustomers({});
const names = customers.map((c) => c.name);
const sorted = names.toSorted();
const reversed = names.toReversed();
return { untouched: names[0], sorted: sorted.slice(0, 3), reversed: reversed.slice(0, 2) };
