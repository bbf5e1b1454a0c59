const lookup: Record<string, number[] | undefined> = { a: [1, 2, 3] };
const values = lookup["a"]!;
const sum = values.reduce((acc: number, v: number) => acc + v, 0);
const el = values.find((v) => v > 1)!;
let definite!: number;
definite = sum + el;
definite
