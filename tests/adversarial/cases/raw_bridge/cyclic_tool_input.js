// A cyclic input cannot be serialised: the call rejects with a TypeError.
// expect: succeeded
// output: "TypeError"
// tool-calls: 0
async (input, tools) => { const a = {}; a.a = a; try { await tools.call('test.echo', a); return 'sent'; } catch (e) { return e.name; } }
