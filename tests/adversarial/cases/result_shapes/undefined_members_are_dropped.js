// Inside objects and arrays the JSON.stringify rules hold: an undefined, function or symbol
// member is dropped, and in an array becomes null.
// expect: succeeded
// output: {"list": [null, null, null]}
(input, tools) => ({ a: undefined, f() {}, s: Symbol('x'), list: [undefined, () => 1, Symbol('y')] })
