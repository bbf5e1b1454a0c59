// An input over maxInputBytes is refused before any worker starts.
// expect: failed INVALID_INPUT max_input_bytes
// limits: maxInputBytes=16
// input: {"s": "more than sixteen bytes"}
(input, tools) => input
