// A tool that answers JSON null: null is an output, not a missing one.
// expect: succeeded
// output: ["succeeded", true, null]
async (input, tools) => { const r = await tools.call('test.echo', null); return [r.status, 'output' in r, r.output]; }
