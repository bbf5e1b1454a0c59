// expect: {"result":{"unique":5,"allV4":true,"bytes":16}}
const ids = new Set();
for (let i = 0; i < 5; i++) ids.add(crypto.randomUUID());
const pattern = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const bytes = crypto.getRandomValues(new Uint8Array(16));
return { unique: ids.size, allV4: [...ids].every((id) => pattern.test(id)), bytes: bytes.length };
