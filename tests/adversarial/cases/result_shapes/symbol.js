// A symbol is not JSON.
// expect: failed INVALID_OUTPUT output_not_json
(input, tools) => Symbol('s')
