// undefined is not a result (JSON.stringify would return no text).
// expect: failed INVALID_OUTPUT output_not_json
(input, tools) => undefined
