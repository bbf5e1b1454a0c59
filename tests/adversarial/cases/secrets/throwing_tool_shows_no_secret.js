// A read tool that throws an exception holding a token and a host path: the program sees a fixed
// message, and the outcome (checked by the runner for every case) shows neither.
// Its effect may have happened, so the execution is outcome_unknown.
// expect: outcome_unknown OUTCOME_UNKNOWN unknown_tool_outcome
// tool-calls: 1
async (input, tools) => JSON.stringify(await tools.call('test.leaky', {}))
