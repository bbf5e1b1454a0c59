// A function is not JSON.
// expect: failed INVALID_OUTPUT max_output_bytes
(input, tools) => () => 1
