// new Array(2 ** 32 - 1) allocates nothing; filling it runs out of memory.
// expect: failed LIMIT_EXCEEDED memory_limit
// limits: memoryBytes=16777216 cpuMillis=10000
(input, tools) => new Array(2 ** 32 - 1).fill(0).length
