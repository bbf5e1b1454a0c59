// A tool output bigger than maxOutputBytes (64 KiB) never enters the sandbox: the program gets a
// failed call, and the broker did run.
// expect: succeeded
// output: {"status": "failed", "code": "INVALID_OUTPUT"}
// tool-calls: 1
async (input, tools) => {
  const result = await tools.call('test.bytes', { n: 70000 });
  return { status: result.status, code: result.error.code };
}
