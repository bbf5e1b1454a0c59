// Catching the out-of-memory error and carrying on is not possible: it is uncatchable.
// expect: failed LIMIT_EXCEEDED memory_limit
// limits: memoryBytes=16777216 cpuMillis=10000
(input, tools) => { const held = []; for (;;) { try { held.push(new Array(1e5).fill(held.length)); } catch (e) {} } }
