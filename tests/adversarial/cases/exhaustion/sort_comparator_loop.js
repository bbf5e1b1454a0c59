// A sort comparator that never returns, inside a native sort.
// expect: failed LIMIT_EXCEEDED cpu_limit
// limits: cpuMillis=100
(input, tools) => [3, 2, 1].sort(() => { for (;;) {} })
