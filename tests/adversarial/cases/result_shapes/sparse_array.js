// Holes in an array are written null.
// expect: succeeded
// output: [1, null, null, 4]
(input, tools) => { const a = [1]; a[3] = 4; return a; }
