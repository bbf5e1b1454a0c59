#include "codemode/outcome.h"

#include <utility>

#include "core/text/enum_names.h"

namespace codemode {
namespace {

constexpr internal::EnumNames<OutcomeStatus, 5> kStatusNames{{
    {OutcomeStatus::kSucceeded, "succeeded"},
    {OutcomeStatus::kFailed, "failed"},
    {OutcomeStatus::kBlocked, "blocked"},
    {OutcomeStatus::kCancelled, "cancelled"},
    {OutcomeStatus::kOutcomeUnknown, "outcome_unknown"},
}};

constexpr internal::EnumNames<ExecutionState, 4> kExecutionNames{{
    {ExecutionState::kNotStarted, "not_started"},
    {ExecutionState::kSucceeded, "succeeded"},
    {ExecutionState::kFailed, "failed"},
    {ExecutionState::kUnknown, "unknown"},
}};

constexpr internal::EnumNames<Disclosure, 2> kDisclosureNames{{
    {Disclosure::kReleased, "released"},
    {Disclosure::kWithheld, "withheld"},
}};

}  // namespace

std::string_view to_string(OutcomeStatus status) { return internal::name_of(kStatusNames, status); }
std::string_view to_string(ExecutionState state) {
  return internal::name_of(kExecutionNames, state);
}
std::string_view to_string(Disclosure disclosure) {
  return internal::name_of(kDisclosureNames, disclosure);
}

std::optional<ExecutionState> execution_state_from_string(std::string_view text) {
  return internal::value_of(kExecutionNames, text);
}
std::optional<Disclosure> disclosure_from_string(std::string_view text) {
  return internal::value_of(kDisclosureNames, text);
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
