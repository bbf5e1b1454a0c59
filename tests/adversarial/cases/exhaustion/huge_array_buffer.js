// One ArrayBuffer bigger than the whole memory limit.
// expect: failed LIMIT_EXCEEDED memory_limit
// limits: memoryBytes=16777216
(input, tools) => new ArrayBuffer(2 ** 31).byteLength
