#include "codemode/error.h"

#include <utility>

#include "core/text/enum_names.h"

namespace codemode {
namespace {

constexpr internal::EnumNames<ErrorCode, 19> kCodeNames{{
    {ErrorCode::kInvalidConfig, "INVALID_CONFIG"},
    {ErrorCode::kInvalidInput, "INVALID_INPUT"},
    {ErrorCode::kInvalidOutput, "INVALID_OUTPUT"},
    {ErrorCode::kInvalidJson, "INVALID_JSON"},
    {ErrorCode::kPermissionDenied, "PERMISSION_DENIED"},
    {ErrorCode::kBudgetExceeded, "BUDGET_EXCEEDED"},
    {ErrorCode::kLimitExceeded, "LIMIT_EXCEEDED"},
    {ErrorCode::kTimeout, "TIMEOUT"},
    {ErrorCode::kCancelled, "CANCELLED"},
    {ErrorCode::kToolFailed, "TOOL_FAILED"},
    {ErrorCode::kModelFailed, "MODEL_FAILED"},
    {ErrorCode::kGuardBlocked, "GUARD_BLOCKED"},
    {ErrorCode::kGuardUnavailable, "GUARD_UNAVAILABLE"},
    {ErrorCode::kOutcomeUnknown, "OUTCOME_UNKNOWN"},
    {ErrorCode::kUnsupportedProfile, "UNSUPPORTED_PROFILE"},
    {ErrorCode::kNotFound, "NOT_FOUND"},
    {ErrorCode::kConflict, "CONFLICT"},
    {ErrorCode::kStorageUnavailable, "STORAGE_UNAVAILABLE"},
    {ErrorCode::kIntegrityViolation, "INTEGRITY_VIOLATION"},
}};
static_assert(internal::names_are_unique(kCodeNames));

}  // namespace

std::string_view to_string(ErrorCode code) {
  return internal::name_of(kCodeNames, code, "TOOL_FAILED");
}

std::optional<ErrorCode> error_code_from_string(std::string_view text) {
  return internal::value_of(kCodeNames, text);
}

Error Error::with_code(ErrorCode code, std::string rule, std::string message) {
  return Error(code, std::move(rule), std::move(message));
}

Error Error::invalid_config(std::string rule, std::string message) {
  return Error(ErrorCode::kInvalidConfig, std::move(rule), std::move(message));
}

Error Error::invalid_input(std::string rule, std::string message) {
  return Error(ErrorCode::kInvalidInput, std::move(rule), std::move(message));
}

Error Error::invalid_output(std::string rule, std::string message) {
  return Error(ErrorCode::kInvalidOutput, std::move(rule), std::move(message));
}

Error Error::invalid_json(std::string rule, std::string message) {
  return Error(ErrorCode::kInvalidJson, std::move(rule), std::move(message));
}

Error Error::permission_denied(std::string rule, std::string message) {
  return Error(ErrorCode::kPermissionDenied, std::move(rule), std::move(message));
}

Error Error::budget_exceeded(std::string rule, std::string message) {
  return Error(ErrorCode::kBudgetExceeded, std::move(rule), std::move(message));
}

Error Error::limit_exceeded(std::string rule, std::string message) {
  return Error(ErrorCode::kLimitExceeded, std::move(rule), std::move(message));
}

Error Error::timeout(std::string rule, std::string message) {
  return Error(ErrorCode::kTimeout, std::move(rule), std::move(message));
}

Error Error::cancelled(std::string rule, std::string message) {
  return Error(ErrorCode::kCancelled, std::move(rule), std::move(message));
}

Error Error::tool_failed(std::string rule, std::string message) {
  return Error(ErrorCode::kToolFailed, std::move(rule), std::move(message));
}

Error Error::model_failed(std::string rule, std::string message) {
  return Error(ErrorCode::kModelFailed, std::move(rule), std::move(message));
}

Error Error::guard_blocked(std::string rule, std::string message) {
  return Error(ErrorCode::kGuardBlocked, std::move(rule), std::move(message));
}

Error Error::guard_unavailable(std::string rule, std::string message) {
  return Error(ErrorCode::kGuardUnavailable, std::move(rule), std::move(message));
}

Error Error::outcome_unknown(std::string rule, std::string message) {
  return Error(ErrorCode::kOutcomeUnknown, std::move(rule), std::move(message));
}

Error Error::unsupported_profile(std::string rule, std::string message) {
  return Error(ErrorCode::kUnsupportedProfile, std::move(rule), std::move(message));
}

Error Error::not_found(std::string rule, std::string message) {
  return Error(ErrorCode::kNotFound, std::move(rule), std::move(message));
}

Error Error::conflict(std::string rule, std::string message) {
  return Error(ErrorCode::kConflict, std::move(rule), std::move(message));
}

Error Error::storage_unavailable(std::string rule, std::string message) {
  return Error(ErrorCode::kStorageUnavailable, std::move(rule), std::move(message));
}

Error Error::integrity_violation(std::string rule, std::string message) {
  return Error(ErrorCode::kIntegrityViolation, std::move(rule), std::move(message));
}

}  // namespace codemode
