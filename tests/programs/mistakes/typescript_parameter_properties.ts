// expect: {"error": {"code": "code_rejected", "name": "SyntaxError", "line": 2, "messageMatches": "parameter propert"}}
class Client {
  constructor(private readonly customerId: string) {}
  async orders() {
    return (await codemode.crm.listOrders({ customerId: this.customerId })).orders;
  }
}
return (await new Client("c1").orders()).length;
