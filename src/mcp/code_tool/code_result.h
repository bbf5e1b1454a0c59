// How the result of a code-mode program, the envelope of code_prelude.h, becomes the code tool's
// CallToolResult. The parent checks the envelope whole, trusting the prelude in nothing: the
// model's code cannot leave its own function or replace the envelope (code_prelude.h), and this
// is the second line should that ever fail.
//   {result, logs?}                   success: structuredContent {result, logs?} and the same JSON
//                                     as text; `result` alone, as compact JSON, over
//                                     finalResultBytes is final_result_bytes_limit (never cut)
//   {error:{code:"host_calls_limit"}, logs?}
//                                     isError {code: host_calls_limit, message: codemode's, logs?}
//                                     (the same for server_host_operations_limit)
//   {error:{code:"code_rejected", message}, logs}
//                                     isError {code: code_rejected, message: the program's (at most
//                                     1,024 UTF-16 units), logs}
//   anything else                     isError {code: code_rejected, message: codemode's}
// `logs` must be present exactly when the policy's consoleLogs is on: an array of strings whose
// compact JSON is within consoleLogBytes. Errors carry the logs beside code and message.
//
// Thread-safety: pure functions.
#ifndef CODEMODE_MCP_CODE_TOOL_CODE_RESULT_H_
#define CODEMODE_MCP_CODE_TOOL_CODE_RESULT_H_

#include <cstdint>
#include <optional>
#include <string>

#include "codemode/json.h"
#include "codemode/sandbox.h"

#include "mcp/policy/mcp_policy.h"

namespace codemode::mcp {

// Room, beyond finalResultBytes and consoleLogBytes, that the envelope may take as compact JSON
// (its keys, and a code_rejected message of 1,024 UTF-16 units at 6 bytes each when escaped).
inline constexpr std::int64_t kEnvelopeBytes = 8 << 10;

// In the model profile the envelope has no `logs`: they come from the worker (`model_logs`, the
// outcome's), and are fitted to consoleLogBytes here when the policy's consoleLogs is on, cut at
// the first line that does not fit and ended by "[logs truncated]".
Json code_result(const Json& envelope, const McpPolicy& policy,
                 const std::optional<ProgramLogs>& model_logs = {});

// final_result_bytes_limit's message: the result's measured size (when known), the cap, and how
// to return less, naming the repository tools' compact formats (read's "text", list's "paths";
// docs/repositories.md), which carry the same lines and paths in fewer bytes.
std::string final_result_too_large(std::optional<std::int64_t> bytes, std::int64_t cap);

// `logs` as the code tool returns them: a JSON array within `max_bytes` as compact JSON, cut as
// above. Null when `logs` is unset.
Json fitted_logs(const std::optional<ProgramLogs>& logs, std::int64_t max_bytes);

}  // namespace codemode::mcp

#endif  // CODEMODE_MCP_CODE_TOOL_CODE_RESULT_H_
