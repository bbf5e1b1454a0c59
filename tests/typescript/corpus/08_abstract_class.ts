abstract class Shape {
  abstract area(): number;
  abstract readonly name: string;
  describe(): string {
    return `${this.name}: ${this.area().toFixed(2)}`;
  }
}
class Circle extends Shape {
  readonly name = "circle";
  constructor(r: number = 0) {
    super();
  }
  area(): number {
    return Math.PI;
  }
}
class Square extends Shape {
  name = "square";
  side: number = 2;
  area() {
    return this.side ** 2;
  }
}
[new Square().describe()]
