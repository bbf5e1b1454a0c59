// The names of run statuses and phase states, both ways.
#ifndef CODEMODE_WORKFLOW_RUN_RUN_STATUS_H_
#define CODEMODE_WORKFLOW_RUN_RUN_STATUS_H_

#include <optional>
#include <string_view>

#include "codemode/workflow_runtime.h"

namespace codemode::internal {

std::optional<RunStatus> run_status_from_string(std::string_view text);
std::optional<PhaseState> phase_state_from_string(std::string_view text);

// The run status a phase that ended in `state` leaves its run in.
RunStatus run_status_after(PhaseState state);

}  // namespace codemode::internal

#endif  // CODEMODE_WORKFLOW_RUN_RUN_STATUS_H_
