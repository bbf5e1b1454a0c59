// A 100,000-character error message is capped at 1,024 UTF-16 units in programError, and the
// execution is still reported as the program's error.
// expect: failed TOOL_FAILED program_error
// program-error: TypeError: mmmm
(input, tools) => { throw new TypeError('m'.repeat(100000)); }
