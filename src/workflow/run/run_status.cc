#include "workflow/run/run_status.h"

#include <array>
#include <utility>

namespace codemode {
namespace {

constexpr std::array<std::pair<RunStatus, std::string_view>, 7> kRunStatusNames{{
    {RunStatus::kWaiting, "waiting"},
    {RunStatus::kRunning, "running"},
    {RunStatus::kSucceeded, "succeeded"},
    {RunStatus::kFailed, "failed"},
    {RunStatus::kBlocked, "blocked"},
    {RunStatus::kCancelled, "cancelled"},
    {RunStatus::kOutcomeUnknown, "outcome_unknown"},
}};

constexpr std::array<std::pair<PhaseState, std::string_view>, 10> kPhaseStateNames{{
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

template <typename Enum, std::size_t N>
std::string_view name_of(const std::array<std::pair<Enum, std::string_view>, N>& names,
                         Enum value) {
  for (const auto& [candidate, name] : names) {
    if (candidate == value) return name;
  }
  return "unknown";
}

template <typename Enum, std::size_t N>
std::optional<Enum> value_of(const std::array<std::pair<Enum, std::string_view>, N>& names,
                             std::string_view text) {
  for (const auto& [value, name] : names) {
    if (name == text) return value;
  }
  return std::nullopt;
}

}  // namespace

std::string_view to_string(RunStatus status) { return name_of(kRunStatusNames, status); }
std::string_view to_string(PhaseState state) { return name_of(kPhaseStateNames, state); }

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
