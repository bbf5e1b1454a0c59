// NaN and the infinities are written null, as JSON.stringify does.
// expect: succeeded
// output: [null, null, null]
(input, tools) => [NaN, Infinity, -Infinity]
