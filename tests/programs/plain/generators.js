// expect: {"result":["c1,c2,c3","c4,c5,c6","c7,c8"]}
function* chunks(items, size) {
  for (let i = 0; i < items.length; i += size) {
    yield items.slice(i, i + size);
  }
}
const { customers } = await codemode.crm.listCustomers({});
const pages = [];
for (const page of chunks(customers.map((c) => c.id), 3)) {
  pages.push(page.join(","));
}
return pages;
