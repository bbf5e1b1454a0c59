// How the result of a code-mode program, the envelope of code_prelude.h, becomes the code tool's
// CallToolResult. The parent checks the envelope whole, trusting the prelude in nothing: the
// model's code cannot leave its own function or replace the envelope (code_prelude.h), and this
// is the second line should that ever fail.
//   {result, logs?}                   success: structuredContent {result, logs?} and the same JSON
//                                     as text; `result` alone, as compact JSON, over
//                                     finalResultBytes is final_result_bytes_limit (never cut)
//   {error:{code:"host_calls_limit"}, logs?}
//                                     isError {code: host_calls_limit, message: codemode's, logs?}
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

#include "codemode/json.h"

#include "mcp/policy/mcp_policy.h"

namespace codemode::mcp {

// Room, beyond finalResultBytes and consoleLogBytes, that the envelope may take as compact JSON
// (its keys, and a code_rejected message of 1,024 UTF-16 units at 6 bytes each when escaped).
inline constexpr std::int64_t kEnvelopeBytes = 8 << 10;

Json code_result(const Json& envelope, const McpPolicy& policy);

}  // namespace codemode::mcp

#endif  // CODEMODE_MCP_CODE_TOOL_CODE_RESULT_H_
