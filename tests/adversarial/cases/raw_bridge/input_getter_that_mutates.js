// A getter that rewrites the object while it is being read: the host receives one consistent
// snapshot, whatever the program did to its object.
// expect: succeeded
// output: {"echoed": {"a": 1, "b": 2}, "after": {"a": 1, "b": 2, "d": 4}}
async (input, tools) => {
  const value = {
    a: 1,
    get b() { delete this.c; this.d = 4; return 2; },
    c: 3,
  };
  const result = await tools.call('test.echo', value);
  return { echoed: result.output, after: JSON.parse(JSON.stringify(value)) };
}
