// A toJSON on the result that throws makes the result not JSON.
// expect: failed INVALID_OUTPUT max_output_bytes
(input, tools) => ({ toJSON() { throw new Error('no'); } })
