// The same 10 MB result with 64 MiB: serialising builds the JSON text in the sandbox's own memory
// first (the engine's JSON writer), which runs out before the size check; the memory limit ends
// it. Either way nothing of the result leaves the sandbox.
// expect: failed LIMIT_EXCEEDED memory_limit
(input, tools) => 'x'.repeat(10_000_000)
