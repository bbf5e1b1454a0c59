#include "workflow/run/run_status.h"

#include "core/text/enum_names.h"

namespace codemode {
namespace {

constexpr internal::EnumNames<RunStatus, 7> kRunStatusNames{{
    {RunStatus::kWaiting, "waiting"},
    {RunStatus::kRunning, "running"},
    {RunStatus::kSucceeded, "succeeded"},
    {RunStatus::kFailed, "failed"},
    {RunStatus::kBlocked, "blocked"},
    {RunStatus::kCancelled, "cancelled"},
    {RunStatus::kOutcomeUnknown, "outcome_unknown"},
}};

constexpr internal::EnumNames<PhaseState, 10> kPhaseStateNames{{
    {PhaseState::kNotReady, "not_ready"},
    {PhaseState::kAwaitingApproval, "awaiting_approval"},
    {PhaseState::kApproved, "approved"},
    {PhaseState::kRunning, "running"},
    {PhaseState::kSucceeded, "succeeded"},
    {PhaseState::kFailed, "failed"},
    {PhaseState::kBlocked, "blocked"},
    {PhaseState::kCancelled, "cancelled"},
    {PhaseState::kOutcomeUnknown, "outcome_unknown"},
    {PhaseState::kWithdrawn, "withdrawn"},
}};

}  // namespace

std::string_view to_string(RunStatus status) {
  return internal::name_of(kRunStatusNames, status, "unknown");
}
std::string_view to_string(PhaseState state) {
  return internal::name_of(kPhaseStateNames, state, "unknown");
}

namespace internal {

std::optional<RunStatus> run_status_from_string(std::string_view text) {
  return value_of(kRunStatusNames, text);
}

std::optional<PhaseState> phase_state_from_string(std::string_view text) {
  return value_of(kPhaseStateNames, text);
}

RunStatus run_status_after(PhaseState state) {
  switch (state) {
    case PhaseState::kFailed:
      return RunStatus::kFailed;
    case PhaseState::kBlocked:
      return RunStatus::kBlocked;
    case PhaseState::kCancelled:
      return RunStatus::kCancelled;
    case PhaseState::kOutcomeUnknown:
      return RunStatus::kOutcomeUnknown;
    default:
      return RunStatus::kRunning;
  }
}

}  // namespace internal
}  // namespace codemode
