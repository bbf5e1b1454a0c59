type Cat = { kind: "cat"; meows: number };
type Dog = { kind: "dog"; barks: number };
type Pet = Cat | Dog;
function isCat(pet: Pet): pet is Cat {
  return pet.kind === "cat";
}
function assertDefined<T>(value: T | undefined, label: string): asserts value is T {
  if (value === undefined) throw new Error(label);
}
const pets: Pet[] = [{ kind: "cat", meows: 3 }, { kind: "dog", barks: 5 }];
const noise = pets.map((p) => (isCat(p) ? p.meows : p.barks));
const maybe: number | undefined = noise[0];
assertDefined(maybe, "first");
({ noise, first: maybe })
