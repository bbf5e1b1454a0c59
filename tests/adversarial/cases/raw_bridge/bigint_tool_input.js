// A BigInt input cannot be serialised: the call rejects with a TypeError and never leaves.
// expect: succeeded
// output: "TypeError"
// tool-calls: 0
async (input, tools) => { try { await tools.call('test.echo', { n: 1n }); return 'sent'; } catch (e) { return e.name; } }
