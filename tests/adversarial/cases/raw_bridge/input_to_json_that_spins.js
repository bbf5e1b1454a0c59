// A toJSON on a tool input that never returns is stopped by the CPU limit.
// expect: failed LIMIT_EXCEEDED cpu_limit
// limits: cpuMillis=100
// tool-calls: 0
async (input, tools) => tools.call('test.echo', { toJSON() { for (;;) {} } })
