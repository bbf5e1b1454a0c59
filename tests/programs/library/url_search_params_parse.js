// expect: {"result":{"counts":{"paid":2,"pending":1},"page":2,"query":"customer=c6&total=3","has":false}}
const link = "https://example.com/orders?customer=c6&status=paid&status=pending&page=2";
const params = new URL(link).searchParams;
const customerId = params.get("customer");
const statuses = params.getAll("status");
const counts = {};
for (const status of statuses) {
  const { orders } = await codemode.crm.listOrders({ customerId, status });
  counts[status] = orders.length;
}
const query = new URLSearchParams({ customer: customerId, total: "3" });
return { counts, page: Number(params.get("page")), query: query.toString(), has: params.has("missing") };
