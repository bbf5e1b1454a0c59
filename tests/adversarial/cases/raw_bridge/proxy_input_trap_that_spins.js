// A Proxy as tool input whose ownKeys trap never returns.
// expect: failed LIMIT_EXCEEDED cpu_limit
// limits: cpuMillis=100
// tool-calls: 0
async (input, tools) => tools.call('test.echo', new Proxy({}, { ownKeys() { for (;;) {} } }))
