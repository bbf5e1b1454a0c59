// Holding the answers of many big tool calls past memoryBytes: the memory limit ends the program.
// expect: failed LIMIT_EXCEEDED memory_limit
// limits: memoryBytes=16777216 maxOutputBytes=4194304 maxToolCalls=64 cpuMillis=5000 wallTimeMillis=20000
async (input, tools) => {
  const held = [];
  for (let i = 0; i < 64; i++) held.push((await tools.call('test.bytes', { n: 4000000 })).output.text.split(''));
  return held.length;
}
