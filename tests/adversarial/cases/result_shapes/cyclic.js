// A result that contains itself is not JSON.
// expect: failed INVALID_OUTPUT max_output_bytes
(input, tools) => { const a = { b: {} }; a.b.a = a; return a; }
