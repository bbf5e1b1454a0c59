// Dates become strings through toJSON; Map, Set and RegExp become empty objects.
// expect: succeeded
// output: ["1970-01-01T00:00:00.000Z", {}, {}, {}]
(input, tools) => [new Date(0), new Map([[1, 2]]), new Set([1]), /x/g]
