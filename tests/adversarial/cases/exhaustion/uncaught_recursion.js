// Unbounded recursion that is not caught is the program's error.
// expect: failed TOOL_FAILED program_error
// program-error: InternalError
(input, tools) => { const f = () => f(); return f(); }
