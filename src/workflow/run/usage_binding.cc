#include "workflow/run/usage_binding.h"

namespace codemode::internal {

Status check_usage_binding(const CodeProgram& program, std::int64_t phase_cost,
                           const CodeExecutionOutcome& outcome) {
  const Error unbound = Error::outcome_unknown(
      "usage_binding", "Code Mode usage could not be bound to the approved program.");
  std::int64_t known_cost = 0;
  std::int64_t unknown_calls = 0;
  std::int64_t unknown_cost = 0;
  for (const ExecutionEvidence& entry : outcome.evidence) {
    const Tool* tool = program.find_tool(entry.receipt.tool_id);
    if (tool == nullptr) return unbound;
    switch (entry.receipt.execution) {
      case ExecutionState::kSucceeded:
      case ExecutionState::kFailed:
        known_cost += tool->cost_micros();
        break;
      case ExecutionState::kUnknown:
        ++unknown_calls;
        unknown_cost += tool->cost_micros();
        break;
      case ExecutionState::kNotStarted:
        break;
    }
  }
  const CodeExecutionUsage& usage = outcome.usage;
  if (usage.maximum_cost_micros != phase_cost ||
      usage.tool_calls > program.limits().max_tool_calls || usage.known_cost_micros != known_cost ||
      usage.unknown_calls < unknown_calls || usage.unknown_cost_micros < unknown_cost) {
    return unbound;
  }
  return {};
}

}  // namespace codemode::internal
