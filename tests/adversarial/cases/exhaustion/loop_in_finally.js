// A finally block that loops again after the interrupt does not run.
// expect: failed LIMIT_EXCEEDED cpu_limit
// limits: cpuMillis=100
(input, tools) => { try { for (;;) {} } finally { for (;;) {} } }
