// The program returns while a pure tool's call is running: the execution waits for the call to
// settle, then delivers the result.
// expect: succeeded
// output: "early"
// tool-calls: 1
(input, tools) => {
  tools.call('test.slow', { ms: 100 });
  return 'early';
}
