// How a code-tool execution that ended without the envelope (CodeMode::execute failed) becomes the
// call's answer, in the code tool's stable codes (mcp_codes.h, docs/mcp.md). One row per rule an
// execution can end with (RuleInfo::ends_execution in include/codemode/rules.h), each named, so
// that a rule added to the executor is a failing test until it has its row here. At run time a rule
// without a row (a host adapter's) answers as any other sandbox failure: worker_start_failed, "code
// worker could not be started".
//
// Thread-safety: pure functions over a constant table.
#ifndef CODEMODE_MCP_CODE_TOOL_EXECUTION_FAILURE_H_
#define CODEMODE_MCP_CODE_TOOL_EXECUTION_FAILURE_H_

#include <optional>
#include <string_view>

#include "codemode/code_mode.h"
#include "codemode/json.h"

#include "mcp/policy/mcp_policy.h"

namespace codemode::mcp {

enum class ExecutionAnswer {
  kProgramThrew,      // code_rejected: what the program threw (the model's own text), or that its
                      // promise can never settle
  kDeadline,          // deadline_exceeded
  kHeap,              // code_rejected: the heap budget
  kFinalResultBytes,  // final_result_bytes_limit, naming finalResultBytes
  kNotJson,           // code_rejected, with codemode's fixed message for the rule
  kAsIs,              // the rule itself as the code, with codemode's fixed message
  kUnknownOutcome,    // outcome_unknown: a call may have acted; the program's result discarded,
                      // the calls named (`calls`: [{tool, callId}])
  kSandboxFailed,     // worker_start_failed: "code worker could not be started"
};

// The row for `rule`; nullopt when it has none (answered as kSandboxFailed).
std::optional<ExecutionAnswer> execution_answer(std::string_view rule);

// The CallToolResult for a failed `outcome` (REQUIRES: outcome.error).
Json execution_failure(const CodeExecutionOutcome& outcome, const McpPolicy& policy);

}  // namespace codemode::mcp

#endif  // CODEMODE_MCP_CODE_TOOL_EXECUTION_FAILURE_H_
