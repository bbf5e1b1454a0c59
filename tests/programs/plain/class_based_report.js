// expect: {"result":{"count":4,"sprockets":20,"gizmos":2}}
class OrderBook {
  #orders = [];
  add(order) {
    this.#orders.push(order);
    return this;
  }
  get count() {
    return this.#orders.length;
  }
  quantityOf(sku) {
    return this.#orders.filter((o) => o.sku === sku).reduce((n, o) => n + o.quantity, 0);
  }
  static from(orders) {
    const book = new OrderBook();
    orders.forEach((o) => book.add(o));
    return book;
  }
}
const { orders } = await codemode.crm.listOrders({ customerId: "c6" });
const book = OrderBook.from(orders);
return { count: book.count, sprockets: book.quantityOf("SPROCKET"), gizmos: book.quantityOf("GIZMO") };
