// Outcomes: what a tool call or an execution ended as, and the receipt that says whether an effect
// happened. Plain values; safe to copy between threads.
#ifndef CODEMODE_OUTCOME_H_
#define CODEMODE_OUTCOME_H_

#include <optional>
#include <string>
#include <string_view>

#include "codemode/error.h"
#include "codemode/export.h"
#include "codemode/json.h"

namespace codemode {

// Closed list; add at the end, never renumber.
enum class OutcomeStatus : int {
  kSucceeded = 1,   // "succeeded": output is set
  kFailed,          // "failed": error is set
  kBlocked,         // "blocked": a permission, budget or guard refused; error is set
  kCancelled,       // "cancelled": the caller's stop_token fired; error is set
  kOutcomeUnknown,  // "outcome_unknown": an effect may or may not have happened; reconcile it
};
CODEMODE_EXPORT std::string_view to_string(OutcomeStatus status);

// The status an error ends in: CANCELLED -> cancelled, OUTCOME_UNKNOWN -> outcome_unknown,
// PERMISSION_DENIED / BUDGET_EXCEEDED / GUARD_BLOCKED / GUARD_UNAVAILABLE -> blocked, else failed.
CODEMODE_EXPORT OutcomeStatus status_of(ErrorCode code);

// Whether a tool's execute ran, and how it ended, as far as the broker knows.
enum class ExecutionState : int {
  kNotStarted = 1,  // "not_started": refused before execute; no effect, no cost
  kSucceeded,       // "succeeded"
  kFailed,          // "failed": ran and failed; charged its declared cost
  kUnknown,         // "unknown": may have had its effect; its cost stays reserved
};
CODEMODE_EXPORT std::string_view to_string(ExecutionState state);
CODEMODE_EXPORT std::optional<ExecutionState> execution_state_from_string(std::string_view text);

enum class Disclosure : int {
  kReleased = 1,  // "released": the output was returned to the caller
  kWithheld,      // "withheld": nothing of the output was returned
};
CODEMODE_EXPORT std::string_view to_string(Disclosure disclosure);
CODEMODE_EXPORT std::optional<Disclosure> disclosure_from_string(std::string_view text);

// Who a run acts for.
struct Scope {
  std::string principal_id;  // 1..256 characters
  std::string project_id;    // 1..256 characters
  friend bool operator==(const Scope&, const Scope&) = default;
};

// The broker's account of one tool call.
struct ExecutionReceipt {
  std::string call_id;
  std::string tool_id;
  ExecutionState execution = ExecutionState::kNotStarted;
  Disclosure disclosure = Disclosure::kWithheld;
  friend bool operator==(const ExecutionReceipt&, const ExecutionReceipt&) = default;
};

// What invoke_tool (or any broker) returns for one call. `output` is set exactly when status is
// kSucceeded, `error` exactly otherwise. `receipt` is set once the call had an identity.
struct CODEMODE_EXPORT ToolOutcome {
  OutcomeStatus status = OutcomeStatus::kFailed;
  std::optional<Json> output;
  std::optional<Error> error;
  std::optional<ExecutionReceipt> receipt;
  // Set only for a call the tool failed with ToolResponder::fail(tool_message): its own words
  // for the caller, valid UTF-8, at most 1,024 bytes. codemode never writes here; error->message
  // stays codemode's fixed text.
  std::optional<std::string> tool_message;

  static ToolOutcome succeeded(Json output, std::optional<ExecutionReceipt> receipt = {});
  // The status follows status_of(error.code).
  static ToolOutcome failed(Error error, std::optional<ExecutionReceipt> receipt = {});
  bool ok() const { return status == OutcomeStatus::kSucceeded; }
};

}  // namespace codemode

#endif  // CODEMODE_OUTCOME_H_
