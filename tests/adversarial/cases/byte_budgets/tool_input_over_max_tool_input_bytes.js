// A tool input one byte over maxToolInputBytes (16 KiB) is refused in the sandbox; one exactly at
// the limit goes through. The size is the compact JSON's UTF-8 bytes.
// expect: succeeded
// output: ["succeeded", "INVALID_INPUT"]
// tool-calls: 1
async (input, tools) => {
  const atLimit = { s: 'x'.repeat(16384 - '{"s":""}'.length) };
  const overLimit = { s: 'x'.repeat(16384 - '{"s":""}'.length + 1) };
  const first = await tools.call('test.echo', atLimit);
  const second = await tools.call('test.echo', overLimit);
  return [first.status, second.error.code];
}
