// Awaiting a promise nothing can settle: no job is left and no tool call is in flight, so the
// sandbox knows at once that the program can never finish (it does not wait for the wall clock).
// expect: failed TOOL_FAILED program_error
// limits: wallTimeMillis=60000
async (input, tools) => { await new Promise(() => {}); }
