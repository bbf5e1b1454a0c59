// A static import cannot appear in a function expression.
// expect: failed TOOL_FAILED program_error
// program-error: SyntaxError
import fs from 'node:fs'; (input, tools) => fs
