// Getters are read once, as JSON.stringify reads them.
// expect: succeeded
// output: {"a": 1, "b": 2}
(input, tools) => { let n = 0; return { get a() { return ++n; }, get b() { return ++n; } }; }
