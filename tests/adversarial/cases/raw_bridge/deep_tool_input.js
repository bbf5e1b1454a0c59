// A tool input nested 33 levels is refused in the sandbox; 32 goes through.
// expect: succeeded
// output: ["succeeded", "INVALID_INPUT"]
// tool-calls: 1
async (input, tools) => { const nest = (n) => { let v = 0; for (let i = 0; i < n; i++) v = [v]; return v; }; return [(await tools.call('test.echo', nest(32))).status, (await tools.call('test.echo', nest(33))).error.code]; }
