// A tool the program does not list is refused without reaching the broker, and the message does
// not confirm whether such a tool exists.
// expect: succeeded
// output: {"status": "blocked", "code": "PERMISSION_DENIED"}
// tool-calls: 0
async (input, tools) => {
  const result = await tools.call('admin.secret', { all: true });
  return { status: result.status, code: result.error.code };
}
