// A getter on the result that never returns, run while serialising.
// expect: failed LIMIT_EXCEEDED cpu_limit
// limits: cpuMillis=100
(input, tools) => ({ get spin() { for (;;) {} } })
