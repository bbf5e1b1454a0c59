const text: string = "a1b22c333";
const digits = text.match(/\d+/g) as string[];
const half = (n: number): number => n / 2 / 1;
const re = /[/]\//;
const ratio = digits.length / half(4) / 1;
[digits, ratio, re.test("//"), "x/y".split(/\//)]
