// A flood that keeps a million refused calls' promises alive fills the program's memory: the
// memory limit ends it, and no more than maxToolCalls calls ever reached the broker.
// expect: failed LIMIT_EXCEEDED memory_limit
// limits: memoryBytes=16777216 cpuMillis=10000 wallTimeMillis=30000
(input, tools) => {
  const held = [];
  for (let i = 0; i < 1e7; i++) held.push(tools.call('test.echo', { i }));
  return held.length;
}
