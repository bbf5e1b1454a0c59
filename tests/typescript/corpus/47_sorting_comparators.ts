interface Employee {
  name: string;
  age: number;
  dept?: string;
}
const staff: Employee[] = [
  { name: "Zoe", age: 31, dept: "ops" },
  { name: "Al", age: 25 },
  { name: "Mia", age: 31 },
];
const byAgeThenName = (a: Employee, b: Employee): number =>
  a.age - b.age || a.name.localeCompare(b.name);
const sorted = [...staff].sort(byAgeThenName).map((e): string => `${e.name}(${e.dept ?? "-"})`);
sorted
