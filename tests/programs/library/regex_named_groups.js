// expect: {"result":{"months":["01","06","06","02"],"ids":[1010,1011,1012,1013],"replaced":"#10:SPROCKET #11:FLANGE #12:GIZMO #13:DOOHICKEY"}}
const { orders } = await codemode.crm.listOrders({ customerId: "c6" });
const re = /^(?<year>\d{4})-(?<month>\d{2})-(?<day>\d{2})T/;
const months = orders.map((o) => re.exec(o.createdAt).groups.month);
const text = orders.map((o) => `${o.id}:${o.sku}`).join(" ");
const ids = [...text.matchAll(/o(\d+):(\w+)/g)].map((m) => Number(m[1]));
return { months, ids, replaced: text.replaceAll(/o10/g, "#") };
