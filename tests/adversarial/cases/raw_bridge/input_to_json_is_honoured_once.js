// toJSON on a tool input is the program's own choice of data, as in JSON.stringify; a toJSON that
// spins is stopped by the CPU limit (next case).
// expect: succeeded
// output: {"chosen": true}
async (input, tools) => (await tools.call('test.echo', { toJSON: () => ({ chosen: true }) })).output
