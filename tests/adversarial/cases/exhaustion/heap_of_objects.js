// Endless small objects fill the heap.
// expect: failed LIMIT_EXCEEDED memory_limit
// limits: memoryBytes=16777216 cpuMillis=10000
(input, tools) => { const held = []; for (;;) held.push({ a: held.length, b: [1, 2, 3] }); }
