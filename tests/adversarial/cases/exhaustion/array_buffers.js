// Endless 1 MiB ArrayBuffers: memory outside the garbage-collected heap.
// expect: failed LIMIT_EXCEEDED memory_limit
// limits: memoryBytes=16777216 cpuMillis=10000
(input, tools) => { const held = []; for (;;) held.push(new ArrayBuffer(1 << 20)); }
