// A result that contains itself is not JSON.
// expect: failed INVALID_OUTPUT output_cycle
(input, tools) => { const a = { b: {} }; a.b.a = a; return a; }
