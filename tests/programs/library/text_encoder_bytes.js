// expect: {"result":{"length":23,"first":[69,100,115,103],"back":"Edsger Dijkstra — ✓"}}
const encoder = new TextEncoder();
const { customers } = await codemode.crm.listCustomers({ country: "NL" });
const bytes = encoder.encode(customers[0].name + " — ✓");
const back = new TextDecoder().decode(bytes);
return { length: bytes.length, first: Array.from(bytes.slice(0, 4)), back };
