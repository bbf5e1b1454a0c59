// Whether a phase's audit record agrees with its run and its program. The record's own invariants
// (phase_audit.h) say it is a well-formed audit; these say it is this phase's: a record edited in
// the store (its outcome flipped, its receipts renamed to a tool the program never had) or removed
// from under a phase that succeeded reads as broken, like any other record that cannot be trusted.
// What they cannot catch is a record forged whole and consistent by someone who can write the
// store (docs/security.md, "Who can forge a decision or a record").
#ifndef CODEMODE_WORKFLOW_RUN_AUDIT_CONSISTENCY_H_
#define CODEMODE_WORKFLOW_RUN_AUDIT_CONSISTENCY_H_

#include <cstdint>
#include <optional>
#include <set>
#include <string>

#include "codemode/error.h"
#include "codemode/phase_audit.h"

#include "workflow/run/run_document.h"

namespace codemode::internal {

// What the phase's program allows, from its definition.
struct AuditedProgram {
  std::string program_digest;
  std::set<std::string, std::less<>> tool_ids;
  std::int64_t max_tool_calls = 0;
  std::int64_t phase_cost_micros = 0;  // the phase tool's cost: every audit's maximum cost
};

// STORAGE_UNAVAILABLE (rule "phase_audit_mismatch") when `audit` (or its absence) contradicts the
// phase's record in `run` or `program`:
//   - the program digest, execution id, receipts' tools, call count or maximum cost are not the
//     phase's;
//   - a phase that never started (not ready, awaiting approval, approved, withdrawn, or refused
//     before it ran) has an audit;
//   - a phase that succeeded (or whose receipt says it did) has none, or one whose outcome is not
//     succeeded;
//   - a phase its own runtime settled as failed or unknown has one that says it succeeded (a
//     phase ended by recovery may have any: the runtime died after the audit).
Status check_audit_matches_run(const std::optional<PhaseAudit>& audit, const RunDocument& run,
                               const PhaseRecord& phase, const AuditedProgram& program);

}  // namespace codemode::internal

#endif  // CODEMODE_WORKFLOW_RUN_AUDIT_CONSISTENCY_H_
