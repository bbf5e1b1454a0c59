// import.meta exists only in modules; the program is not one.
// expect: failed TOOL_FAILED program_error
// program-error: SyntaxError
(input, tools) => import.meta.url
