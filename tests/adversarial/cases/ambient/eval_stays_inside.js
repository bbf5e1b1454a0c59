// Direct and indirect eval run in the same realm and see nothing of the host.
// expect: succeeded
// output: ["undefined", "undefined", "object"]
(input, tools) => [eval('typeof fetch'), (0, eval)('typeof process'), (0, eval)('typeof this')]
