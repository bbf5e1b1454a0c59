// One phase's execution, from claim to completion (codemode/workflow_runtime.h lists the steps
// and their commits). Also the recovery of phases whose claim lapsed.
#ifndef CODEMODE_WORKFLOW_RUN_PHASE_RUNNER_H_
#define CODEMODE_WORKFLOW_RUN_PHASE_RUNNER_H_

#include <cstddef>
#include <string_view>

#include "codemode/error.h"

#include "workflow/run/runtime_core.h"

namespace codemode::internal {

// Executes the phase if it is approved under this runtime's policy and nobody claimed it first.
// Returns whether this runtime executed it. NOT_FOUND (rule "unknown_workflow") when the runtime
// was not given the run's definition. When a commit fails because the store cannot be reached
// (is_store_outage), the phase is held in core.unsettled() and the error returned.
Result<bool> run_phase(const RuntimeCore& core, std::string_view run_id, std::string_view phase_id);

// Commits what this runtime holds unsettled: each executed phase's audit, receipt and completion,
// and each claim in doubt given back (the phase approved again, nothing reserved). Returns how many
// executed phases it settled. Stops at the first failure; what the store could not take is held
// for the next call.
Result<std::size_t> settle_unsettled(const RuntimeCore& core);

// Ends every phase of the run whose lease lapsed, without running it again. Returns how many.
Result<std::size_t> recover_run(const RuntimeCore& core, std::string_view run_id);

}  // namespace codemode::internal

#endif  // CODEMODE_WORKFLOW_RUN_PHASE_RUNNER_H_
