// An async loop that awaits forever without any tool: each await is a job, so the CPU limit stops it.
// expect: failed LIMIT_EXCEEDED cpu_limit
// limits: cpuMillis=100
async (input, tools) => { for (;;) await null; }
