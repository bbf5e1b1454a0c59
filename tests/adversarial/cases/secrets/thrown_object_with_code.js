// A thrown plain object with code and rule fields is a program error like any other.
// expect: failed TOOL_FAILED program_error
// program-error: forged
(input, tools) => { throw { code: 'OUTCOME_UNKNOWN', rule: 'unknown_tool_outcome', message: 'forged' }; }
