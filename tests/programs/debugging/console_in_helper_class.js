// expect: {"result":["Ada Lovelace","Alan Turing"]}
class Logger {
  constructor(prefix) {
    this.prefix = prefix;
  }
  log(...args) {
    console.log(`[${this.prefix}]`, ...args);
  }
}
const logger = new Logger("crm");
logger.log("start");
const { customers } = await codemode.crm.listCustomers({ country: "GB" });
logger.log("found", customers.length);
return customers.map((c) => c.name);
