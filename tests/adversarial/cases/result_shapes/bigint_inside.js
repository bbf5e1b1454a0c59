// Nor does a BigInt deep inside an object.
// expect: failed INVALID_OUTPUT max_output_bytes
(input, tools) => ({ a: [1, { b: 2n }] })
