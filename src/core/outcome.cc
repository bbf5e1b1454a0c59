#include "codemode/outcome.h"

#include <array>
#include <utility>

namespace codemode {
namespace {

template <typename Enum, std::size_t N>
std::string_view name_of(const std::array<std::pair<Enum, std::string_view>, N>& table,
                         Enum value) {
  for (const auto& [known, name] : table) {
    if (known == value) return name;
  }
  return "";
}

template <typename Enum, std::size_t N>
std::optional<Enum> value_of(const std::array<std::pair<Enum, std::string_view>, N>& table,
                             std::string_view text) {
  for (const auto& [value, name] : table) {
    if (name == text) return value;
  }
  return std::nullopt;
}

constexpr std::array<std::pair<OutcomeStatus, std::string_view>, 5> kStatusNames{{
    {OutcomeStatus::kSucceeded, "succeeded"},
    {OutcomeStatus::kFailed, "failed"},
    {OutcomeStatus::kBlocked, "blocked"},
    {OutcomeStatus::kCancelled, "cancelled"},
    {OutcomeStatus::kOutcomeUnknown, "outcome_unknown"},
}};

constexpr std::array<std::pair<ExecutionState, std::string_view>, 4> kExecutionNames{{
    {ExecutionState::kNotStarted, "not_started"},
    {ExecutionState::kSucceeded, "succeeded"},
    {ExecutionState::kFailed, "failed"},
    {ExecutionState::kUnknown, "unknown"},
}};

constexpr std::array<std::pair<Disclosure, std::string_view>, 2> kDisclosureNames{{
    {Disclosure::kReleased, "released"},
    {Disclosure::kWithheld, "withheld"},
}};

}  // namespace

std::string_view to_string(OutcomeStatus status) { return name_of(kStatusNames, status); }
std::string_view to_string(ExecutionState state) { return name_of(kExecutionNames, state); }
std::string_view to_string(Disclosure disclosure) { return name_of(kDisclosureNames, disclosure); }

std::optional<ExecutionState> execution_state_from_string(std::string_view text) {
  return value_of(kExecutionNames, text);
}
std::optional<Disclosure> disclosure_from_string(std::string_view text) {
  return value_of(kDisclosureNames, text);
}

OutcomeStatus status_of(ErrorCode code) {
  switch (code) {
    case ErrorCode::kCancelled:
      return OutcomeStatus::kCancelled;
    case ErrorCode::kOutcomeUnknown:
      return OutcomeStatus::kOutcomeUnknown;
    case ErrorCode::kPermissionDenied:
    case ErrorCode::kBudgetExceeded:
    case ErrorCode::kGuardBlocked:
    case ErrorCode::kGuardUnavailable:
      return OutcomeStatus::kBlocked;
    default:
      return OutcomeStatus::kFailed;
  }
}

ToolOutcome ToolOutcome::succeeded(Json output, std::optional<ExecutionReceipt> receipt) {
  return ToolOutcome{.status = OutcomeStatus::kSucceeded,
                     .output = std::move(output),
                     .error = std::nullopt,
                     .receipt = std::move(receipt)};
}

ToolOutcome ToolOutcome::failed(Error error, std::optional<ExecutionReceipt> receipt) {
  const OutcomeStatus status = status_of(error.code);
  return ToolOutcome{.status = status,
                     .output = std::nullopt,
                     .error = std::move(error),
                     .receipt = std::move(receipt)};
}

}  // namespace codemode
