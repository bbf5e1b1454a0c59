// The extremes that are exact keep their value: the largest safe integers and the smallest double.
// expect: succeeded
// output: [9007199254740991, -9007199254740991, 5e-324, 0.1]
(input, tools) => [Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, Number.MIN_VALUE, 0.1]
