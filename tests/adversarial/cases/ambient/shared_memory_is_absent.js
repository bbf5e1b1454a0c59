// No SharedArrayBuffer and no Atomics, so Atomics.wait cannot park the engine thread where the
// CPU watchdog sees no time pass, and no high-resolution timer can be built from shared memory.
// expect: succeeded
// output: ["undefined", "undefined"]
(input, tools) => [typeof SharedArrayBuffer, typeof Atomics]
