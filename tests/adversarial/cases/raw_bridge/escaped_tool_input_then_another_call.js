// A tool input of 2,000 quotes (2,000 characters, 4,000 bytes once escaped in JSON, more in the
// frame) goes through, and the next call still gets its answer: call ids never skip.
// expect: succeeded
// output: [2000, "next"]
async (input, tools) => { const a = await tools.call('test.echo', '"'.repeat(2000)); const b = await tools.call('test.echo', 'next'); return [a.output.length, b.output]; }
