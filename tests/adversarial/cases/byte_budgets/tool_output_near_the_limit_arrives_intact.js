// A tool output of quotes and newlines whose JSON is 65,527 bytes, just under maxOutputBytes
// (64 KiB), arrives byte for byte: nothing is escaped twice on the way, and a full-size answer
// fits its frame.
// expect: succeeded
// output: {"length": 47648, "tail": "\"value\"\n\"value\"\n", "same": true}
// limits: maxToolInputBytes=65536
async (input, tools) => {
  const text = '"value"\n'.repeat(5956);
  const result = await tools.call('test.echo', { text });
  return { length: result.output.text.length, tail: result.output.text.slice(-16), same: result.output.text === text };
}
