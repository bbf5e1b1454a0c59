// The program rethrows everything it learnt from the throwing tool: the thrown text is the fixed
// bridge message; nothing of the exception crosses.
// expect: outcome_unknown OUTCOME_UNKNOWN unknown_tool_outcome
async (input, tools) => { const r = await tools.call('test.leaky', {}); throw new Error(JSON.stringify(r)); }
