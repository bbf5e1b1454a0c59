// via: run
// input: {"a": 20, "b": 22}
// expect: {"result":42}
(input) => input.a + input.b
