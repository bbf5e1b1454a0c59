// 5,000 calls at once with maxToolConcurrency 4, each tool answering after 100 ms: four reach the
// broker, the rest are refused in the sandbox at once (refused, not queued), and the program still
// gets an answer for every call.
// expect: succeeded
// output: {"succeeded": 4, "LIMIT_EXCEEDED": 4996}
// tool-calls: 4
async (input, tools) => {
  const results = await Promise.all(
    Array.from({ length: 5000 }, () => tools.call('test.slow', { ms: 100 })));
  const counts = {};
  for (const result of results) {
    const key = result.status === 'succeeded' ? 'succeeded' : result.error.code;
    counts[key] = (counts[key] || 0) + 1;
  }
  return counts;
}
