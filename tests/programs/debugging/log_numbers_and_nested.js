// expect: {"result":{"WIDGET":12.5,"SPROCKET":3.25}}
// expect: {"logs":["{\"WIDGET\":12.5,\"SPROCKET\":3.25}","total 15.75","{\"nested\":{\"list\":[12.5],\"ok\":true}}"]}
const prices = {};
for (const sku of ["WIDGET", "SPROCKET"]) {
  prices[sku] = (await codemode.crm.price({ sku })).cents / 100;
}
console.log(prices);
console.log("total", prices.WIDGET + prices.SPROCKET);
console.log({ nested: { list: [prices.WIDGET], ok: true } });
return prices;
