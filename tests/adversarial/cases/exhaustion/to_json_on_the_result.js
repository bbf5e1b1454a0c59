// A toJSON on the result that never returns.
// expect: failed LIMIT_EXCEEDED cpu_limit
// limits: cpuMillis=100
(input, tools) => ({ toJSON() { for (;;) {} } })
