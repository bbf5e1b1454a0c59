// A program waiting on a pure tool call that outlives the wall time: the execution times out, the
// worker is killed, and the call is stopped.
// expect: failed TIMEOUT wall_time_limit
// limits: wallTimeMillis=300
async (input, tools) => tools.call('test.slow', { ms: 10000 })
