// A Symbol.species constructor that throws, and an Array subclass as tool input, do not disturb
// the bridge: the input is read as plain JSON data.
// expect: succeeded
// output: [1, 2, 3]
async (input, tools) => {
  class Evil extends Array {
    static get [Symbol.species]() { throw new Error('species'); }
  }
  Object.defineProperty(Array, Symbol.species, { get() { throw new Error('species'); } });
  const result = await tools.call('test.echo', Evil.from([1, 2, 3]));
  return result.output;
}
