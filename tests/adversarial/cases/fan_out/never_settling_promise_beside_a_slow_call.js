// A never-settling promise raced against a slow tool call: the program waits for the call, then
// finishes with its answer.
// expect: succeeded
// output: {"slept": 50}
async (input, tools) => {
  const result = await Promise.race([new Promise(() => {}), tools.call('test.slow', { ms: 50 })]);
  return result.output;
}
