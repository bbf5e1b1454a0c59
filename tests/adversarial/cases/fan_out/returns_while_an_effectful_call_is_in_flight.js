// The program returns while a write tool's call is still running. The execution waits for admitted
// calls to settle (bounded by the wall time), the call is stopped at the wall time with its effect
// unknown, so the program's result is withheld and the evidence names the call.
// expect: outcome_unknown OUTCOME_UNKNOWN unknown_tool_outcome
// limits: wallTimeMillis=300
// tool-calls: 1
(input, tools) => {
  tools.call('test.never', {});
  return 'early';
}
