// Typed arrays with a byte written in every page, so their pages are really used, not only
// reserved. (TypedArray.prototype.fill is interpreted JavaScript without a JIT: ~60 ms per MiB.)
// expect: failed LIMIT_EXCEEDED memory_limit
// limits: memoryBytes=16777216 cpuMillis=10000
(input, tools) => {
  const held = [];
  for (;;) {
    const a = new Uint8Array(1 << 20);
    for (let i = 0; i < a.length; i += 4096) a[i] = 1;
    held.push(a);
  }
}
