// import() of a host module, a relative file and a data: URL all reject; nothing loads.
// expect: succeeded
// output: [true, true, true]
async (input, tools) => {
  const specifiers = ['node:fs', './worker.js', 'data:text/javascript,export default 1'];
  const refused = [];
  for (const specifier of specifiers) {
    try {
      await import(specifier);
      refused.push(false);
    } catch {
      refused.push(true);
    }
  }
  return refused;
}
