// A toJSON on the result that throws makes the result not JSON.
// expect: failed INVALID_OUTPUT output_not_json
(input, tools) => ({ toJSON() { throw new Error('no'); } })
