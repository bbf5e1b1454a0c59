// Function('return this')() reaches the sandbox's own global, which has no process.
// expect: succeeded
// output: "undefined"
(input, tools) => typeof Function('return this')().process
