// invoke_tool is the ordinary broker: the one place a tool's execute is called. In order it checks
// the options, the permissions, the input (JSON boundary and schema), the input guard, reserves the
// declared cost from the budget, runs execute under the tool's timeout and the caller's stop_token,
// checks the output (JSON boundary, schema, guard), settles the budget and writes a receipt.
//
// Permissions are checked before the input is looked at, so a caller without the grant learns
// nothing about the tool's schema and no guard runs on its behalf.
//
// Thread-safety: invoke_tool may be called from any number of threads at once.
#ifndef CODEMODE_BROKER_H_
#define CODEMODE_BROKER_H_

#include <cstddef>
#include <memory>
#include <stop_token>
#include <string>

#include "codemode/budget.h"
#include "codemode/export.h"
#include "codemode/json.h"
#include "codemode/outcome.h"
#include "codemode/permissions.h"
#include "codemode/tool.h"

namespace codemode {

struct InvokeOptions {
  std::string run_id;   // 1..256 characters
  std::string call_id;  // 1..256 characters; unique per call, it names the receipt
  Scope scope;
  std::stop_token stop_token;  // cancels the call: CANCELLED
  Permissions permissions;
  std::shared_ptr<Budget> budget;  // required; shared by every call that is given it
  std::size_t max_input_bytes = 1u << 20;   // the input as compact JSON
  std::size_t max_output_bytes = 1u << 20;  // the output as compact JSON
};

// Never throws. Returns:
//   succeeded                         output set; receipt {succeeded, released}
//   failed INVALID_CONFIG             bad options; no receipt
//   blocked PERMISSION_DENIED         a grant is missing; receipt {not_started, withheld}
//   failed INVALID_INPUT              not bounded JSON, or the input schema refused it
//   blocked GUARD_BLOCKED / GUARD_UNAVAILABLE   the input or output guard blocked or threw
//   blocked BUDGET_EXCEEDED           no call or money left in the budget
//   failed TOOL_FAILED                execute failed or refused (receipt failed / not_started)
//   failed TIMEOUT / cancelled CANCELLED   the timeout or stop_token fired before an answer
//   failed INVALID_OUTPUT             the output is not bounded JSON or fails the output schema
//   outcome_unknown OUTCOME_UNKNOWN   execute may have had its effect (it threw, never answered,
//                                     or was stopped) and the tool's effects are not "none"
// A kNone tool that is stopped, throws or never answers ends "failed", charged its declared cost.
CODEMODE_EXPORT ToolOutcome invoke_tool(const Tool& tool, const Json& input,
                                        const InvokeOptions& options) noexcept;

}  // namespace codemode

#endif  // CODEMODE_BROKER_H_
