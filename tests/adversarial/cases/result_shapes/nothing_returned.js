// A program that returns nothing returned undefined.
// expect: failed INVALID_OUTPUT output_not_json
async (input, tools) => { await null; }
