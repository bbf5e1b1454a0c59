// A tool whose output is nested 40 levels: the output is refused at the host, and the
// program sees a failed call.
// expect: succeeded
// output: ["failed", "INVALID_OUTPUT"]
// tool-calls: 1
async (input, tools) => { const r = await tools.call('test.deep', { depth: 40 }); return [r.status, r.error.code]; }
