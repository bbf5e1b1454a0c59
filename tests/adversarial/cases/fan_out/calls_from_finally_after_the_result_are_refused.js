// An async program whose promise has settled cannot reach a tool from a later job.
// expect: succeeded
// output: "settled"
// tool-calls: 1
async (input, tools) => {
  await tools.call('test.echo', 1);
  Promise.resolve().then(() => null).then(() => null).then(() => tools.call('test.echo', 'late'));
  return 'settled';
}
