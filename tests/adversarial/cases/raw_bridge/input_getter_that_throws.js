// A getter on a tool input that throws: the call rejects with the program's own error, and
// nothing reaches the broker.
// expect: succeeded
// output: "from the getter"
// tool-calls: 0
async (input, tools) => {
  try {
    await tools.call('test.echo', { get boom() { throw new Error('from the getter'); } });
    return 'no error';
  } catch (error) {
    return error.message;
  }
}
