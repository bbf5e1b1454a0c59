// An integral number beyond 2^53 - 1 in magnitude (Number.MAX_VALUE, 2^53 + 2, 1e21) has no exact
// meaning across JSON parsers, so the JSON boundary refuses it (docs/json-and-schemas.md).
// expect: failed INVALID_OUTPUT output_not_json
(input, tools) => [Number.MAX_SAFE_INTEGER, 2 ** 53 + 2]
