// A 10 MB string result with memory to spare (256 MiB) is refused as invalid output inside the
// sandbox: the worker checks the size as it serialises, so no 10 MB frame reaches the parent.
// expect: failed INVALID_OUTPUT max_output_bytes
// limits: memoryBytes=268435456
(input, tools) => 'x'.repeat(10_000_000)
