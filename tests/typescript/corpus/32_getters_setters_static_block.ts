class Temperature {
  static readonly absoluteZero: number;
  static {
    (Temperature as { absoluteZero: number }).absoluteZero = -273.15;
  }
  private celsius_: number = 0;
  get fahrenheit(): number {
    return this.celsius_ * 1.8 + 32;
  }
  set fahrenheit(value: number) {
    this.celsius_ = (value - 32) / 1.8;
  }
}
const t = new Temperature();
t.fahrenheit = 212;
[Math.round(t.fahrenheit), Temperature.absoluteZero]
