// Calls started from a then-callback after the program returned never reach the broker.
// expect: succeeded
// output: "returned"
// tool-calls: 0
(input, tools) => {
  Promise.resolve().then(() => Promise.resolve()).then(() => {
    for (let i = 0; i < 10; i++) tools.call('test.echo', { late: i });
  });
  return 'returned';
}
