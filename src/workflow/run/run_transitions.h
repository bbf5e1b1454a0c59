// The changes a run goes through, as plain functions on a RunDocument: what becomes ready, how a
// phase ends, how the run ends. The runtime applies them to a copy and commits the copy.
#ifndef CODEMODE_WORKFLOW_RUN_RUN_TRANSITIONS_H_
#define CODEMODE_WORKFLOW_RUN_RUN_TRANSITIONS_H_

#include <cstdint>
#include <functional>
#include <string>

#include "codemode/error.h"
#include "codemode/workflow.h"

#include "workflow/run/run_document.h"

namespace codemode::internal {

// What opening an approval request needs from the runtime.
struct ApprovalPolicy {
  std::string policy_hash;
  std::int64_t now_millis = 0;
  std::int64_t ttl_millis = 0;
  // The phase's binding digest as it is now (phase_binding.h), its material kept where a
  // reviewer can read it.
  std::function<Result<std::string>(const DurableWorkflow::Phase&)> binding_digest;
};

// Opens an approval request for every phase whose dependencies all succeeded (its input resolved
// from its binding and checked against its program's input schema), then, once every phase
// succeeded, resolves the result and checks it against the workflow's output schema. A binding or
// schema failure ends the run failed. Sets the run's status.
Status open_ready_phases(RunDocument& run, const DurableWorkflow& workflow,
                         const ApprovalPolicy& policy);

// (Re)issues the phase's approval request with a fresh expiry and digest.
Status issue_approval(RunDocument& run, PhaseRecord& phase,
                      const DurableWorkflow::Phase& definition, const ApprovalPolicy& policy);

// Ends `phase` in `state` (failed, blocked, cancelled or outcome_unknown) with `error`, and the run
// with it: every phase that has not started is withdrawn.
void end_phase(RunDocument& run, PhaseRecord& phase, PhaseState state, Error error);

// waiting / running from the phases' states, for a run that is not over.
void refresh_status(RunDocument& run);

// "<run_id>/step:<phase_id>", the phase tool's call id; and the phase's execution id.
std::string phase_call_id(const RunDocument& run, const PhaseRecord& phase);
std::string phase_execution_id(const RunDocument& run, const PhaseRecord& phase);

}  // namespace codemode::internal

#endif  // CODEMODE_WORKFLOW_RUN_RUN_TRANSITIONS_H_
