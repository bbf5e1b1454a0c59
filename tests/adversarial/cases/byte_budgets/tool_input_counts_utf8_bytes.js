// Two-byte characters count twice: 8,200 "é" are 16,400 bytes, over the 16 KiB tool input limit.
// expect: succeeded
// output: "INVALID_INPUT"
// tool-calls: 0
async (input, tools) => (await tools.call('test.echo', 'é'.repeat(8200))).error.code
