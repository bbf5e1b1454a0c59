// A program that returns nothing returned undefined.
// expect: failed INVALID_OUTPUT max_output_bytes
async (input, tools) => { await null; }
