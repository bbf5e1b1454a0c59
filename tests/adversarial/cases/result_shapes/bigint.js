// A BigInt has no JSON form.
// expect: failed INVALID_OUTPUT output_bigint
(input, tools) => 1n
