// `tools` is a frozen object with one own property, call; assigning, deleting or redefining it
// throws in strict code, and the call still works afterwards.
// expect: succeeded
// output: {"frozen": true, "keys": ["call"], "refused": [true, true, true], "works": "succeeded"}
async (input, tools) => {
  const attempts = [
    () => { tools.call = () => 'forged'; },
    () => { delete tools.call; },
    () => Object.defineProperty(tools, 'call', { value: () => 'forged' }),
  ];
  const refused = attempts.map((attempt) => {
    try { attempt(); return false; } catch (error) { return error instanceof TypeError; }
  });
  return {
    frozen: Object.isFrozen(tools),
    keys: Reflect.ownKeys(tools),
    refused,
    works: (await tools.call('test.echo', 1)).status,
  };
}
