// Exponential backtracking in the regular expression engine.
// expect: failed LIMIT_EXCEEDED cpu_limit
// limits: cpuMillis=100
(input, tools) => /^(a+)+$/.test('a'.repeat(40) + '!')
