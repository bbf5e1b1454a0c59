interface Greeter {
  greet(name: string): string;
}
interface Counted {
  readonly count: number;
}
class Polite implements Greeter, Counted {
  count = 0;
  greet(name: string): string {
    this.count++;
    return `Good day, ${name}`;
  }
}
const p: Greeter & Counted = new Polite();
[p.greet("Ann"), p.greet("Bo"), p.count]
