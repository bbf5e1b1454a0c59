#include "workflow/run/audit_consistency.h"

#include <algorithm>

#include "codemode/rules.h"

#include "workflow/run/run_transitions.h"

namespace codemode::internal {
namespace {

Error mismatch() {
  return Error::storage_unavailable("phase_audit_mismatch",
                                    "Code phase audit does not match its run.");
}

bool never_started(const PhaseRecord& phase) {
  switch (phase.state) {
    case PhaseState::kNotReady:
    case PhaseState::kAwaitingApproval:
    case PhaseState::kApproved:
    case PhaseState::kWithdrawn:
      return true;
    default:
      return phase.receipt && phase.receipt->execution == ExecutionState::kNotStarted;
  }
}

bool settled_as_succeeded(const PhaseRecord& phase) {
  return phase.state == PhaseState::kSucceeded ||
         (phase.receipt && phase.receipt->execution == ExecutionState::kSucceeded);
}

// Settled as failed or unknown by the runtime that ran it (recovery says "phase_interrupted").
bool settled_as_not_succeeded(const PhaseRecord& phase) {
  return phase.receipt &&
         (phase.receipt->execution == ExecutionState::kFailed ||
          phase.receipt->execution == ExecutionState::kUnknown) &&
         !(phase.error && phase.error->rule == rules::kPhaseInterrupted);
}

bool is_programs(const PhaseAudit& audit, const RunDocument& run, const PhaseRecord& phase,
                 const AuditedProgram& program) {
  return audit.program_digest == program.program_digest &&
         audit.execution_id == phase_execution_id(run, phase) &&
         audit.usage.tool_calls <= program.max_tool_calls &&
         audit.usage.maximum_cost_micros == program.phase_cost_micros &&
         std::all_of(audit.evidence.begin(), audit.evidence.end(),
                     [&](const ExecutionEvidence& evidence) {
                       return evidence.run_id == run.run_id &&
                              program.tool_ids.contains(evidence.receipt.tool_id);
                     });
}

}  // namespace

Status check_audit_matches_run(const std::optional<PhaseAudit>& audit, const RunDocument& run,
                               const PhaseRecord& phase, const AuditedProgram& program) {
  if (!audit) return settled_as_succeeded(phase) ? Status(mismatch()) : Status();
  if (never_started(phase) || !is_programs(*audit, run, phase, program)) return mismatch();
  const bool succeeded = audit->outcome == OutcomeStatus::kSucceeded;
  if (settled_as_succeeded(phase) && !succeeded) return mismatch();
  if (settled_as_not_succeeded(phase) && succeeded) return mismatch();
  return {};
}

}  // namespace codemode::internal
