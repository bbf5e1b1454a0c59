// A BigInt has no JSON form.
// expect: failed INVALID_OUTPUT max_output_bytes
(input, tools) => 1n
