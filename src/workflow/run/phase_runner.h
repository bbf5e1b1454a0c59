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
// was not given the run's definition.
Result<bool> run_phase(const RuntimeCore& core, std::string_view run_id, std::string_view phase_id);

// Ends every phase of the run whose lease lapsed, without running it again. Returns how many.
Result<std::size_t> recover_run(const RuntimeCore& core, std::string_view run_id);

}  // namespace codemode::internal

#endif  // CODEMODE_WORKFLOW_RUN_PHASE_RUNNER_H_
