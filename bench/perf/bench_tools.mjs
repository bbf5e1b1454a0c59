// The bench's tools for the Node.js runners (quickjs/, isolated_vm/), with the same answers as
// codemode-bench's in-process C++ tools (bench_tools.cc), and the call-span figure the bench
// measures at codemode's broker.

// A tool call's answer as codemode's broker gives it: {status, output} or {status, error}.
const kTools = {
  'catalog.price': (input) => ({ cents: input.sku.length * 100 }),
  'number.double': (input) => ({ value: input.value * 2 }),
};

export function answerToolCall(id, input) {
  const tool = kTools[id];
  return tool
    ? { status: 'succeeded', output: tool(input) }
    : { status: 'failed', error: { code: 'PERMISSION_DENIED', message: 'unknown tool' } };
}

// (last call's arrival - first's) / (calls - 1) in microseconds, from process.hrtime.bigint()
// readings: the amortized time from one host call to the next; null under two calls.
export function callSpanMicros(arrivals) {
  if (arrivals.length < 2) return null;
  return Number(arrivals[arrivals.length - 1] - arrivals[0]) / 1000 / (arrivals.length - 1);
}
