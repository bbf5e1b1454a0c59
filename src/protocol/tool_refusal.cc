#include "protocol/tool_refusal.h"

#include <string>

#include "core/text/enum_names.h"

namespace codemode::internal {
namespace {

// Not names, but the same shape: one fixed message per code.
constexpr EnumNames<ErrorCode, 19> kBridgeMessages{{
    {ErrorCode::kInvalidConfig, "The tool call was not configured correctly."},
    {ErrorCode::kInvalidInput,
     "The tool input was rejected: it is not plain JSON within maxToolInputBytes, or it does not "
     "match the tool schema."},
    {ErrorCode::kInvalidOutput, "The tool output was rejected."},
    {ErrorCode::kInvalidJson, "The tool data must be bounded plain JSON."},
    {ErrorCode::kPermissionDenied, "The tool call was not permitted."},
    {ErrorCode::kBudgetExceeded, "The tool call did not fit the remaining budget."},
    {ErrorCode::kLimitExceeded,
     "The tool call exceeded a limit, such as the program's maxToolCalls or maxToolConcurrency."},
    {ErrorCode::kCancelled, "The tool call was cancelled."},
    {ErrorCode::kTimeout, "The tool call ran out of time."},
    {ErrorCode::kToolFailed, "The tool call failed."},
    {ErrorCode::kModelFailed, "A model call failed."},
    {ErrorCode::kGuardBlocked, "A guard blocked the tool call."},
    {ErrorCode::kGuardUnavailable, "A required guard could not decide on the tool call."},
    {ErrorCode::kOutcomeUnknown, "The tool call may or may not have taken effect."},
    {ErrorCode::kUnsupportedProfile, "The tool call is not supported here."},
    {ErrorCode::kNotFound, "The tool call referred to something that does not exist."},
    {ErrorCode::kConflict, "The execution has finished; it accepts no more tool calls."},
    {ErrorCode::kStorageUnavailable, "Storage needed by the tool call is unavailable."},
    {ErrorCode::kIntegrityViolation, "The tool call failed an integrity check."},
}};

}  // namespace

std::string_view bridge_message(ErrorCode code) {
  return name_of(kBridgeMessages, code, "The tool call failed.");
}

CodeToolOutcome bridge_refusal(ErrorCode code, std::string_view rule) {
  return CodeToolOutcome::failure(status_of(code), code, rule, std::string(bridge_message(code)));
}

CodeToolOutcome bridge_refusal(const Error& error) {
  return bridge_refusal(error.code, error.rule);
}

}  // namespace codemode::internal
