// PhaseAudit is the immutable record one execution of a durable phase leaves: which program ran,
// how it ended, the receipt of every nested tool call and the host-derived usage. It is written
// once per (audit scope, run, phase), before the phase settles, and never holds the program's
// output or what it threw.
//
// Its stored form ("format 2") is exactly
//   {format:2, runId, phaseId, executionId, programDigest, outcome,
//    evidence:[{runId, receipt:{callId, toolId, execution, disclosure}}],
//    usage:{toolCalls, unknownCalls, knownCostMicros, unknownCostMicros, maximumCostMicros}}
// at most 65,536 bytes, and its invariants are checked when it is written and on every read:
//   toolCalls 0..64; unknownCalls <= toolCalls; costs are safe non-negative integers with
//   known + unknown <= maximum; at most toolCalls receipts (and at most 64); each receipt's callId
//   is executionId + ":code:<n>", n 1..64, unique; each toolId an identifier; unknown receipts
//   <= unknownCalls; unknownCalls > 0 only with outcome outcome_unknown.
// A record that breaks one is STORAGE_UNAVAILABLE: a store that returns it is not trusted.
// Evidence missing after an interruption stays missing; it is never made up.
//
// Plain values; safe to copy between threads.
#ifndef CODEMODE_PHASE_AUDIT_H_
#define CODEMODE_PHASE_AUDIT_H_

#include <string>
#include <vector>

#include "codemode/code_mode.h"
#include "codemode/error.h"
#include "codemode/export.h"
#include "codemode/json.h"
#include "codemode/outcome.h"

namespace codemode {

struct PhaseAudit {
  std::string run_id;
  std::string phase_id;
  std::string execution_id;  // "<run_id>/step:<phase_id>:sandbox"
  std::string program_digest;
  OutcomeStatus outcome = OutcomeStatus::kFailed;
  std::vector<ExecutionEvidence> evidence;
  CodeExecutionUsage usage;
  friend bool operator==(const PhaseAudit&, const PhaseAudit&) = default;
};

// The stored form above. STORAGE_UNAVAILABLE when an invariant does not hold.
CODEMODE_EXPORT Result<Json> to_json(const PhaseAudit& audit);
// The inverse, with every invariant checked. STORAGE_UNAVAILABLE otherwise.
CODEMODE_EXPORT Result<PhaseAudit> phase_audit_from_json(const Json& json);

}  // namespace codemode

#endif  // CODEMODE_PHASE_AUDIT_H_
