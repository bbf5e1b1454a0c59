// The codes an MCP error result can carry besides an Error's rule: a failed tool call's `code` is
// the Error's rule (include/codemode/rules.h, tool_results.h), and these are the answers of the
// server and of the code tool that no Error carries (docs/mcp.md). A quota class may not be named
// so that its "<name>_limit" is one of them (mcp_policy.h).
#ifndef CODEMODE_MCP_CATALOG_MCP_CODES_H_
#define CODEMODE_MCP_CATALOG_MCP_CODES_H_

namespace codemode::mcp::codes {

// The code tool: the model's code, and how its execution ended (code_tool.h, code_result.h).
inline constexpr char kCodeRejected[] = "code_rejected";
inline constexpr char kDeadlineExceeded[] = "deadline_exceeded";
inline constexpr char kFinalResultBytesLimit[] = "final_result_bytes_limit";
inline constexpr char kInvalidArguments[] = "invalid_arguments";
inline constexpr char kOutcomeUnknown[] = "outcome_unknown";
// In the program, for the call's rule (code_program.h).
inline constexpr char kHostCallsLimit[] = "host_calls_limit";
inline constexpr char kHostConcurrencyLimit[] = "host_concurrency_limit";
// The server's capacity (server_capacity.h).
inline constexpr char kServerWorkersLimit[] = "server_workers_limit";
inline constexpr char kServerInvocationsLimit[] = "server_invocations_limit";
// (server_host_operations_limit is an Error's rule: include/codemode/rules.h.)

}  // namespace codemode::mcp::codes

#endif  // CODEMODE_MCP_CATALOG_MCP_CODES_H_
