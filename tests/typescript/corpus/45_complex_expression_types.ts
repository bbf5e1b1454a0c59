type Matrix = number[][];
const identity = (n: number): Matrix =>
  Array.from({ length: n }, (_: unknown, i: number) =>
    Array.from({ length: n }, (_2: unknown, j: number): number => (i === j ? 1 : 0)),
  );
const transpose = (m: Matrix): Matrix => m[0]!.map((_, j) => m.map((row) => row[j]!));
const product = (a: Matrix, b: Matrix): Matrix =>
  a.map((row) => transpose(b).map((col) => row.reduce((s, v, k) => s + v * col[k]!, 0)));
product([[1, 2], [3, 4]], identity(2))
