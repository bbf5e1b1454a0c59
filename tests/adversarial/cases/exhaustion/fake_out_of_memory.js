// Throwing an error that looks like out-of-memory is only the program's error.
// expect: failed TOOL_FAILED program_error
// program-error: RangeError: out of memory
(input, tools) => { throw new RangeError('out of memory'); }
