// -0 is written 0, as JSON.stringify does.
// expect: succeeded
// output: 0
(input, tools) => -0
