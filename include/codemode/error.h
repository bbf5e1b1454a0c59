// Error is codemode's one error value: a coarse `code` for callers to branch on, a fine `rule`
// naming the limit or check that fired, and a `message` written by codemode.
//
// Messages never contain program text, tool data, paths or secrets; they name the rule. Callers
// compare `code` (or `rule`) and never parse `message`. Result<T> carries either a value or an
// Error; codemode returns errors as values and never throws across its API.
//
// Thread-safety: plain values; safe to copy between threads.
#ifndef CODEMODE_ERROR_H_
#define CODEMODE_ERROR_H_

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

#include "codemode/export.h"

namespace codemode {

// The public error codes. The list is closed: add new codes at the end, never renumber.
enum class ErrorCode : int {
  kInvalidConfig = 1,     // INVALID_CONFIG: a definition or option is invalid; the message names the field
  kInvalidInput,          // INVALID_INPUT
  kInvalidOutput,         // INVALID_OUTPUT
  kInvalidJson,           // INVALID_JSON: not bounded, plain JSON
  kPermissionDenied,      // PERMISSION_DENIED
  kBudgetExceeded,        // BUDGET_EXCEEDED
  kLimitExceeded,         // LIMIT_EXCEEDED
  kTimeout,               // TIMEOUT
  kCancelled,             // CANCELLED
  kToolFailed,            // TOOL_FAILED
  kModelFailed,           // MODEL_FAILED
  kGuardBlocked,          // GUARD_BLOCKED
  kGuardUnavailable,      // GUARD_UNAVAILABLE
  kOutcomeUnknown,        // OUTCOME_UNKNOWN
  kUnsupportedProfile,    // UNSUPPORTED_PROFILE
  kNotFound,              // NOT_FOUND
  kConflict,              // CONFLICT
  kStorageUnavailable,    // STORAGE_UNAVAILABLE
  kIntegrityViolation,    // INTEGRITY_VIOLATION
};

// "INVALID_CONFIG", "LIMIT_EXCEEDED", ...
CODEMODE_EXPORT std::string_view to_string(ErrorCode code);
// The inverse of to_string; nullopt for anything that is not one of the codes above.
CODEMODE_EXPORT std::optional<ErrorCode> error_code_from_string(std::string_view text);

struct Error {
  ErrorCode code = ErrorCode::kInvalidConfig;
  // snake_case name of the limit or check, e.g. "max_tool_calls", "input_schema", "cpu_limit".
  std::string rule;
  // Written by codemode; names the rule; never echoes data.
  std::string message;

  friend bool operator==(const Error&, const Error&) = default;
};

// Result<T> holds a T or an Error. REQUIRES: value() only when ok(), error() only when !ok().
template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : state_(std::in_place_index<0>, std::move(value)) {}  // NOLINT: implicit by design
  Result(Error error) : state_(std::in_place_index<1>, std::move(error)) {}  // NOLINT

  bool ok() const { return state_.index() == 0; }
  explicit operator bool() const { return ok(); }

  T& value() & { return std::get<0>(state_); }
  const T& value() const& { return std::get<0>(state_); }
  T&& value() && { return std::get<0>(std::move(state_)); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }

  const Error& error() const& { return std::get<1>(state_); }
  Error&& error() && { return std::get<1>(std::move(state_)); }

 private:
  std::variant<T, Error> state_;
};

// Result<void>: success, or an Error.
template <>
class [[nodiscard]] Result<void> {
 public:
  Result() = default;
  Result(Error error) : error_(std::move(error)) {}  // NOLINT: implicit by design

  bool ok() const { return !error_.has_value(); }
  explicit operator bool() const { return ok(); }
  const Error& error() const& { return *error_; }
  Error&& error() && { return std::move(*error_); }

 private:
  std::optional<Error> error_;
};

using Status = Result<void>;

}  // namespace codemode

#endif  // CODEMODE_ERROR_H_
