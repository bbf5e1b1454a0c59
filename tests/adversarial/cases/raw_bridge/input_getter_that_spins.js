// A getter on a tool input that never returns runs in the sandbox, on the program's CPU budget.
// expect: failed LIMIT_EXCEEDED cpu_limit
// limits: cpuMillis=100
// tool-calls: 0
async (input, tools) => tools.call('test.echo', { get spin() { for (;;) {} } })
