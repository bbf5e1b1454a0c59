// expect: {"result":{"a":1,"b":3,"parseError":"SyntaxError"}}
function safeParse(text, fallback) {
  try {
    return JSON.parse(text);
  } catch (e) {
    return { ...fallback, parseError: e.name };
  }
}
const good = safeParse('{"customerId":"c4"}', {});
const bad = safeParse("{customerId: c4}", { customerId: "c1" });
const a = await codemode.crm.listOrders({ customerId: good.customerId });
const b = await codemode.crm.listOrders({ customerId: bad.customerId });
return { a: a.orders.length, b: b.orders.length, parseError: bad.parseError };
