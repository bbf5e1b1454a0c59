// expect: {"result":20.49}
const cents = async (sku) => (await codemode.crm.price({ sku })).cents;
const dollars = (c) => c / 100;
return dollars((await cents("WIDGET")) + (await cents("GIZMO")));
