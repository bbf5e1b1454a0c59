// A command tool that prints a token and a host path to stdout and stderr and exits 3: the call
// fails with a fixed message; the program returns all it saw.
// expect: succeeded
// output: {"status": "failed", "error": {"code": "TOOL_FAILED", "rule": "tool_failed", "message": "The tool call failed."}}
// tool-calls: 1
async (input, tools) => { const r = await tools.call('test.leaky_cmd', {}); return r; }
