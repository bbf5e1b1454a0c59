// A string of a billion characters, flattened by a search.
// expect: failed LIMIT_EXCEEDED memory_limit
// limits: memoryBytes=16777216 cpuMillis=10000
(input, tools) => 'x'.repeat(1e9).indexOf('y')
