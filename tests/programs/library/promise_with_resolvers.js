// expect: {"result":2100}
const { promise, resolve } = Promise.withResolvers();
codemode.crm.price({ sku: "FLANGE" }).then((p) => resolve(p.cents));
const cents = await promise;
return cents;
