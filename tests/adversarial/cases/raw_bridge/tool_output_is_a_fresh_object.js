// Each tool result is a fresh object: mutating one does not change what the next call returns.
// expect: succeeded
// output: [{"n": 1}, {"n": 1}]
async (input, tools) => {
  const first = await tools.call('test.echo', { n: 1 });
  first.output.n = 99;
  Object.setPrototypeOf(first, null);
  const second = await tools.call('test.echo', { n: 1 });
  return [second.output, (await tools.call('test.echo', { n: 1 })).output];
}
