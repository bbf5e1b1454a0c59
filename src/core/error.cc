#include "codemode/error.h"

#include <array>
#include <utility>

namespace codemode {
namespace {

constexpr std::array<std::pair<ErrorCode, std::string_view>, 19> kCodeNames{{
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

}  // namespace

std::string_view to_string(ErrorCode code) {
  for (const auto& [known, name] : kCodeNames) {
    if (known == code) return name;
  }
  return "TOOL_FAILED";
}

std::optional<ErrorCode> error_code_from_string(std::string_view text) {
  for (const auto& [code, name] : kCodeNames) {
    if (name == text) return code;
  }
  return std::nullopt;
}

}  // namespace codemode
