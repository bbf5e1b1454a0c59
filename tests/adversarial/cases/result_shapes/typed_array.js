// A typed array is written as an object of indices, as JSON.stringify does.
// expect: succeeded
// output: {"0": 7, "1": 8}
(input, tools) => new Uint8Array([7, 8])
