// undefined is not a result (JSON.stringify would return no text).
// expect: failed INVALID_OUTPUT max_output_bytes
(input, tools) => undefined
