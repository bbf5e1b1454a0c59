function format(value: number): string;
function format(value: string): string;
function format(value: number | string): string {
  return typeof value === "number" ? value.toFixed(1) : value.toUpperCase();
}
class Parser {
  parse(text: string): number;
  parse(text: string, radix: number): number;
  parse(text: string, radix?: number): number {
    return parseInt(text, radix ?? 10);
  }
}
[format(3), format("abc"), new Parser().parse("ff", 16), new Parser().parse("12")]
