// 20,000 calls started in a loop and never awaited, with maxToolCalls 4: the sandbox answers the
// excess itself, so the flood costs CPU and memory inside the sandbox only. Four calls reach the
// broker, and the result is returned.
// expect: succeeded
// output: "flooded"
// limits: cpuMillis=10000 wallTimeMillis=30000 maxToolCalls=4
// tool-calls: 4
(input, tools) => {
  for (let i = 0; i < 20000; i++) tools.call('test.slow', { ms: 20 }).catch(() => {});
  return 'flooded';
}
