// A program that throws an error shaped like codemode's own limit errors stays a program error:
// its text is the program's, in programError, never the error's code, rule or message.
// expect: failed TOOL_FAILED program_error
// program-error: LIMIT_EXCEEDED: The program ran longer than its cpuMillis limit.
(input, tools) => { const e = new Error('The program ran longer than its cpuMillis limit.'); e.name = 'LIMIT_EXCEEDED'; e.code = 'LIMIT_EXCEEDED'; e.rule = 'cpu_limit'; throw e; }
