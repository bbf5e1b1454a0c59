// A result nested 200,000 deep cannot even be serialised: the engine reports too much
// recursion, the program's error, never a crash.
// expect: failed TOOL_FAILED program_error
// program-error: InternalError
(input, tools) => { let v = 0; for (let i = 0; i < 200000; i++) v = [v]; return v; }
