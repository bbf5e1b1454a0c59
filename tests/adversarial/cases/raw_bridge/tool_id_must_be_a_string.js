// A tool id that is not a string, or an object whose toString names a real tool, is refused as
// invalid input before any broker call; nothing is coerced.
// expect: succeeded
// output: ["INVALID_INPUT", "INVALID_INPUT", "INVALID_INPUT"]
// tool-calls: 0
async (input, tools) => {
  const ids = [42, { toString: () => 'test.echo' }, undefined];
  const codes = [];
  for (const id of ids) codes.push((await tools.call(id, {})).error.code);
  return codes;
}
