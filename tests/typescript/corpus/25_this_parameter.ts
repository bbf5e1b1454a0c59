interface Ctx {
  base: number;
}
function addBase(this: Ctx, x: number): number {
  return this.base + x;
}
function onlyThis(this: Ctx) {
  return this.base;
}
const ctx: Ctx = { base: 10 };
[addBase.call(ctx, 5), onlyThis.call(ctx)]
