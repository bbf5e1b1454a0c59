// A Map with millions of entries.
// expect: failed LIMIT_EXCEEDED memory_limit
// limits: memoryBytes=16777216 cpuMillis=10000
(input, tools) => { const m = new Map(); for (let i = 0; ; i++) m.set(i, { i }); }
