// A lone surrogate in a tool input has no UTF-8 form: refused in the sandbox.
// expect: succeeded
// output: "INVALID_INPUT"
// tool-calls: 0
async (input, tools) => (await tools.call('test.echo', { s: 'a\uDC00' })).error.code
