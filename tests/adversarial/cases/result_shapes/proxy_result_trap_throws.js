// A Proxy result whose ownKeys trap throws: not JSON.
// expect: failed INVALID_OUTPUT output_not_json
(input, tools) => new Proxy({}, { ownKeys() { throw new Error('trap'); } })
