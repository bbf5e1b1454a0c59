// expect: {"result":"o1009"}
// expect: {"logs":["orders: [{\"createdAt\":\"2024-05-05T05:05:00Z\",\"customerId\":\"c4\",\"id\":\"o1009\",\"quantity\":2,\"sku\":\"GADGET\",\"status\":\"paid\"}]","1 true null [1,\"two\"]"]}
const { orders } = await codemode.crm.listOrders({ customerId: "c4" });
console.log("orders:", orders);
console.log(orders.length, true, null, [1, "two"]);
return orders[0].id;
