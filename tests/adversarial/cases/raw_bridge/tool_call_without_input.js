// A call with no input sends null, as JSON.stringify would write undefined inside an array.
// expect: succeeded
// output: null
async (input, tools) => (await tools.call('test.echo')).output
