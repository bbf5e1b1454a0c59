// A Proxy result whose ownKeys trap throws: not JSON.
// expect: failed INVALID_OUTPUT max_output_bytes
(input, tools) => new Proxy({}, { ownKeys() { throw new Error('trap'); } })
