// The result is decided when the program's promise settles: a job it left queued then never
// runs, so it cannot turn the returned value into cpu_limit.
// expect: succeeded
// output: 7
// limits: cpuMillis=100
async (input, tools) => { Promise.resolve().then(() => { for (;;) {} }); return 7; }
