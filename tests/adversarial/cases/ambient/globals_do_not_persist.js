// A program that pollutes every intrinsic it can leaves nothing for the next execution (the runner
// runs an ordinary program after each case in a fresh worker).
// expect: succeeded
// output: "polluted"
(input, tools) => {
  globalThis.leak = 1;
  Object.prototype.leak = 1;
  Math.random = () => 4;
  Array.prototype.map = null;
  return 'polluted';
}
