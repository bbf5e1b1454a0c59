// Catching around the loop does not help: the interrupt cannot be caught.
// expect: failed LIMIT_EXCEEDED cpu_limit
// limits: cpuMillis=100
(input, tools) => { for (;;) { try { for (;;) {} } catch (e) {} } }
