// expect: {"result":0}
interface Scorer {
  score(orders: { quantity: number; status: string }[]): number;
}

abstract class BaseScorer implements Scorer {
  protected abstract weight(status: string): number;
  score(orders: { quantity: number; status: string }[]): number {
    return orders.reduce((s, o) => s + o.quantity * this.weight(o.status), 0);
  }
}

class LoyaltyScorer extends BaseScorer {
  protected weight(status: string): number {
    return status === "paid" ? 2 : status === "pending" ? 1 : -1;
  }
}

const scorer: Scorer = new LoyaltyScorer();
const { orders } = await codemode.crm.listOrders({ customerId: "c1" });
return scorer.score(orders);
