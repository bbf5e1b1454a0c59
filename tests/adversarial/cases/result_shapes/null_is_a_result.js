// null is a result like any other.
// expect: succeeded
// output: null
(input, tools) => null
