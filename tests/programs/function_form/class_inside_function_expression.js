// expect: {"result":"c2=2;c7=1"}
async () => {
  class Report {
    constructor() { this.rows = []; }
    add(id, n) { this.rows.push(`${id}=${n}`); }
    toString() { return this.rows.join(";"); }
  }
  const report = new Report();
  for (const customerId of ["c2", "c7"]) {
    const { orders } = await codemode.crm.listOrders({ customerId });
    report.add(customerId, orders.length);
  }
  return String(report);
}
