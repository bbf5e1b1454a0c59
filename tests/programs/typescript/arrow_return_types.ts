// expect: {"result":7}
const isPaid = (o: { status: string }): boolean => o.status === "paid";
const qty = ({ quantity }: { quantity: number }): number => quantity;
const sum = (xs: number[]): number => xs.reduce((a: number, b: number) => a + b, 0);

const { orders } = await codemode.crm.listOrders({ customerId: "c8" });
return sum(orders.filter(isPaid).map(qty));
