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
  Scope scope{};
  std::stop_token stop_token{};  // cancels the call: CANCELLED
  Permissions permissions{};
  std::shared_ptr<Budget> budget{};         // required; shared by every call that is given it
  std::size_t max_input_bytes = 1u << 20;   // the input as compact JSON
  std::size_t max_output_bytes = 1u << 20;  // the output as compact JSON
};

// Never throws. The steps, in order, and what each refusal returns (status CODE rule; receipt):
//   1 options: run_id / call_id 1..256 characters and not blank, scope ids 1..256, budget set,
//     byte limits > 0, and the grant list well formed
//       failed INVALID_CONFIG invoke_options (or permissions); no receipt
//   2 permissions (permissions.h)
//       blocked PERMISSION_DENIED permission; {not_started, withheld}
//   3 input through check_json with max_input_bytes
//       failed INVALID_INPUT tool_input_bytes; {not_started, withheld}
//   4 the tool's timeout starts, and the caller's stop_token is followed
//   5 input schema, then the input guard
//       failed INVALID_INPUT input_schema / blocked GUARD_BLOCKED or GUARD_UNAVAILABLE input_guard
//       (input_schema's message is the first failure, "/items/2/qty: must be >= 1": schema.h)
//     if the timeout or the caller stopped the call by now, nothing runs:
//       failed TIMEOUT tool_timeout / cancelled CANCELLED cancelled; {not_started, withheld}
//   6 budget.reserve(cost_micros)
//       blocked BUDGET_EXCEEDED budget_calls / budget_cost; {not_started, withheld}
//   7 execute, inline on the calling thread; then the first of: its answer, the timeout, the
//     caller's stop (a later answer is ignored)
//       fail()    failed TOOL_FAILED tool_failed; {failed}; charged cost_micros
//       fail(text) the same, with tool_message = the tool's text
//       fail_as(rule, text) the same, with the tool's rule in place of tool_failed
//       refuse()  failed TOOL_FAILED tool_refused; {not_started}; charged nothing
//       threw, never answered, timed out, cancelled:
//         effects "none": failed TOOL_FAILED tool_failed / failed TIMEOUT tool_timeout /
//                         cancelled CANCELLED cancelled; {failed}; charged cost_micros
//         otherwise:      outcome_unknown OUTCOME_UNKNOWN with the same rule; {unknown};
//                         cost_micros stays reserved as unknown
//   8 succeed(output): charged cost_micros; the output through check_json with
//     max_output_bytes, the output schema, then the output guard
//       failed INVALID_OUTPUT tool_output_bytes / output_schema, blocked GUARD_* output_guard;
//       {succeeded, withheld}
//   9 succeeded, output set; {succeeded, released}
// Messages are fixed texts written by codemode: never the input, the output or the tool's words
// (those are only ever in tool_message, and only when the tool passed them to fail). The one
// message that is not fixed, input_schema's, names the input's member names and indices and the
// schema's limits, never a value.
// An unexpected internal failure is failed TOOL_FAILED broker_internal (outcome_unknown after
// dispatch for a tool with effects).
CODEMODE_EXPORT ToolOutcome invoke_tool(const Tool& tool, const Json& input,
                                        const InvokeOptions& options) noexcept;

}  // namespace codemode

#endif  // CODEMODE_BROKER_H_
