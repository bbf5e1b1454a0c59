// A result with an own "__proto__" key is refused, so no host code that merges the result
// into an object can be polluted by it.
// expect: failed INVALID_OUTPUT output_reserved_key
(input, tools) => JSON.parse('{"__proto__": {"admin": true}}')
