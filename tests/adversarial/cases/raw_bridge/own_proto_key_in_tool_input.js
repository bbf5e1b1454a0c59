// A tool input with an own "__proto__" key is refused before the broker, so no host code that
// merges objects can be tricked into prototype pollution.
// expect: succeeded
// output: "INVALID_INPUT"
// tool-calls: 0
async (input, tools) => (await tools.call('test.echo', JSON.parse('{"__proto__": {"admin": true}}'))).error.code
