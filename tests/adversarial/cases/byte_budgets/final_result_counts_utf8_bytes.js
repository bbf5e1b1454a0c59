// A result of 40,000 "é" is 80,002 bytes of JSON: over the 64 KiB limit although it is only
// 40,002 characters.
// expect: failed INVALID_OUTPUT max_output_bytes
(input, tools) => 'é'.repeat(40000)
