// Unbounded recursion from a tool input's toJSON rejects the call with the program's error.
// expect: succeeded
// output: "InternalError"
async (input, tools) => { const f = () => f(); try { await tools.call('test.echo', { toJSON: f }); return 'called'; } catch (e) { return e.name; } }
