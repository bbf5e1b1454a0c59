// Twenty calls one after another with maxToolCalls 16: sixteen run, four are refused.
// expect: succeeded
// output: {"succeeded": 16, "LIMIT_EXCEEDED": 4}
// tool-calls: 16
async (input, tools) => {
  const counts = {};
  for (let i = 0; i < 20; i++) {
    const result = await tools.call('test.echo', { i });
    const key = result.status === 'succeeded' ? 'succeeded' : result.error.code;
    counts[key] = (counts[key] || 0) + 1;
  }
  return counts;
}
