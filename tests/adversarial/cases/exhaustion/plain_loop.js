// while (true) {}
// expect: failed LIMIT_EXCEEDED cpu_limit
// limits: cpuMillis=100
(input, tools) => { while (true) {} }
