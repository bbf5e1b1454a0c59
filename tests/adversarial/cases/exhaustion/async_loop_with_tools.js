// An async loop around a tool call: waiting for tools does not count, but the loop's own
// work between the calls does, once the calls run out.
// expect: failed LIMIT_EXCEEDED cpu_limit
// limits: cpuMillis=100 maxToolCalls=4
async (input, tools) => { for (;;) { await tools.call('test.echo', 1); } }
