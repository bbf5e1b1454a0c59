class Counter {
  private count: number = 0;
  readonly step: number;
  public label?: string;
  static created: number = 0;

  constructor(step: number) {
    this.step = step;
    Counter.created++;
  }

  increment(): this {
    this.count += this.step;
    return this;
  }

  get value(): number {
    return this.count;
  }
}
const c = new Counter(5).increment().increment();
({ value: c.value, created: Counter.created, label: c.label ?? null })
