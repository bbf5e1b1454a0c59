// Nor does a BigInt deep inside an object.
// expect: failed INVALID_OUTPUT output_bigint
(input, tools) => ({ a: [1, { b: 2n }] })
