// Sixteen answers of 60,000 bytes each (960,000 bytes in all) all arrive: the cumulative bytes a
// program can receive are bounded by maxToolCalls x maxOutputBytes, and the worker's memory limit.
// expect: succeeded
// output: 960000
// tool-calls: 16
async (input, tools) => {
  let total = 0;
  for (let i = 0; i < 16; i++) total += (await tools.call('test.bytes', { n: 60000 })).output.text.length;
  return total;
}
