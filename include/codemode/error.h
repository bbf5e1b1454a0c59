// Error is codemode's one error value: a coarse `code` for callers to branch on, a fine `rule`
// naming the limit or check that fired, and a `message` written by codemode.
//
// Messages never contain program text, tool data, paths or secrets; they name the rule. Callers
// compare `code` (or `rule`, against the names of rules.h) and never parse `message`. Result<T>
// carries either a value or an Error; codemode returns errors as values and never throws across its
// API.
//
//   return Error::invalid_input("input_schema", "The input does not match the input schema.");
//
// Ownership and thread-safety: plain values that own their strings; safe to copy between threads.
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
  // INVALID_CONFIG: a definition or option is invalid; the message names the field.
  kInvalidConfig = 1,
  kInvalidInput,        // INVALID_INPUT
  kInvalidOutput,       // INVALID_OUTPUT
  kInvalidJson,         // INVALID_JSON: not bounded, plain JSON
  kPermissionDenied,    // PERMISSION_DENIED
  kBudgetExceeded,      // BUDGET_EXCEEDED
  kLimitExceeded,       // LIMIT_EXCEEDED
  kTimeout,             // TIMEOUT
  kCancelled,           // CANCELLED
  kToolFailed,          // TOOL_FAILED
  kModelFailed,         // MODEL_FAILED
  kGuardBlocked,        // GUARD_BLOCKED
  kGuardUnavailable,    // GUARD_UNAVAILABLE
  kOutcomeUnknown,      // OUTCOME_UNKNOWN
  kUnsupportedProfile,  // UNSUPPORTED_PROFILE
  kNotFound,            // NOT_FOUND
  kConflict,            // CONFLICT
  kStorageUnavailable,  // STORAGE_UNAVAILABLE
  kIntegrityViolation,  // INTEGRITY_VIOLATION
};

// "INVALID_CONFIG", "LIMIT_EXCEEDED", ...
CODEMODE_EXPORT std::string_view to_string(ErrorCode code);
// The inverse of to_string; nullopt for anything that is not one of the codes above.
CODEMODE_EXPORT std::optional<ErrorCode> error_code_from_string(std::string_view text);

// One error. Built only through the named constructors, one per ErrorCode (with_code when the
// code is itself data, such as an abort's code), so every Error has a code, a rule and a message;
// the fields are public to read and compare.
struct CODEMODE_EXPORT Error {
  ErrorCode code;
  // snake_case name of the limit or check, e.g. "max_tool_calls", "input_schema", "cpu_limit":
  // codemode's own are the names of rules.h.
  std::string rule;
  // Written by codemode; names the rule; never echoes data.
  std::string message;

  static Error invalid_config(std::string rule, std::string message);
  static Error invalid_input(std::string rule, std::string message);
  static Error invalid_output(std::string rule, std::string message);
  static Error invalid_json(std::string rule, std::string message);
  static Error permission_denied(std::string rule, std::string message);
  static Error budget_exceeded(std::string rule, std::string message);
  static Error limit_exceeded(std::string rule, std::string message);
  static Error timeout(std::string rule, std::string message);
  static Error cancelled(std::string rule, std::string message);
  static Error tool_failed(std::string rule, std::string message);
  static Error model_failed(std::string rule, std::string message);
  static Error guard_blocked(std::string rule, std::string message);
  static Error guard_unavailable(std::string rule, std::string message);
  static Error outcome_unknown(std::string rule, std::string message);
  static Error unsupported_profile(std::string rule, std::string message);
  static Error not_found(std::string rule, std::string message);
  static Error conflict(std::string rule, std::string message);
  static Error storage_unavailable(std::string rule, std::string message);
  static Error integrity_violation(std::string rule, std::string message);
  // For a code decided elsewhere (a table, an abort, another Error's code).
  static Error with_code(ErrorCode code, std::string rule, std::string message);

  friend bool operator==(const Error&, const Error&) = default;

 private:
  Error(ErrorCode error_code, std::string error_rule, std::string error_message)
      : code(error_code), rule(std::move(error_rule)), message(std::move(error_message)) {}
};

// Result<T> holds a T or an Error. REQUIRES: value() only when ok(), error() only when !ok().
template <typename T>
class [[nodiscard]] Result {
 public:
  // NOLINTNEXTLINE: implicit by design
  Result(T value) : state_(std::in_place_index<0>, std::move(value)) {}
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
