// CodeTool: code mode's one MCP tool, `code` {code: string}. Each call runs the model's JavaScript
// (code_program.h) as a fresh program in a fresh confined worker through CodeMode::execute, with
// the catalog's tools behind codemode's broker and the policy's budgets as the program's limits
// (the codes are those the program's Errors carry, code_program.h, or the call's result):
//   sourceBytes          checked before any worker starts          source_bytes_limit
//   wallTimeMillis       the program's wall and CPU time           deadline_exceeded
//   heapBytes            the program's memoryBytes                 code_rejected
//   stackBytes           the worker's native stack quota           a catchable InternalError
//   hostCalls            maxToolCalls                              host_calls_limit
//   hostConcurrency      maxToolConcurrency (refused, not queued)  host_concurrency_limit
//   quotaClasses         units per invocation, before dispatch     <class>_limit
//   hostResultBytes      each tool output, before the worker sees it
//                                                                  host_result_bytes_limit
//   cumulativeHostResultBytes
//                        the outputs delivered, in total           cumulative_host_bytes_limit
//   finalResultBytes     the returned value, measured as compact JSON
//                                                                  final_result_bytes_limit
//   contentBlocks, contentBytes
//                        a downstream tool's image, audio and resource blocks held as
//                        handles, per invocation (content_handles.h)
//                                                                  content_blocks_limit,
//                                                                  content_bytes_limit
//   consoleLogs, consoleLogBytes
//                        console capture into logs, bounded (code_prelude.h)
//   serverWorkers        simultaneous workers, fail fast           server_workers_limit
//   serverHostOperations tool calls in flight, server-wide, queued for at most
//                        serverHostOperationWaitMillis             server_host_operations_limit
// (the last two from the server's ServerCapacity, server_capacity.h)
//   unknownOutcomes      a call whose outcome is unknown (a write that timed out) ends the
//                        invocation, naming the call, whatever the program returned
//                                                                  outcome_unknown
//                        (leave_to_program: the program's own answer stands)
// The quota units, result bytes and content blocks are counted per invocation (invocation.h) by the
// broker the executor calls, which finds the invocation by its execution id.
// Results (code_result.h): success -> structuredContent {result, logs?} and the same JSON as text,
// then the blocks whose handles the result returns (content_handles.h);
// failure -> isError with structuredContent {code, message, logs?}; a program's own throw is
// code_rejected with its message, except a rethrown host_calls_limit or
// server_host_operations_limit, which stays that code;
// outcome_unknown adds calls: [{tool, callId}] (execution_failure.h).
//
// An invocation whose worker wrote to its stderr gets one event in the server's log, with the
// count and never the bytes (diagnostics_log.h).
//
// Thread-safety: call may run on many threads at once.
#ifndef CODEMODE_MCP_CODE_TOOL_CODE_TOOL_H_
#define CODEMODE_MCP_CODE_TOOL_CODE_TOOL_H_

#include <memory>
#include <stop_token>
#include <string>
#include <vector>

#include "codemode/code_mode.h"
#include "codemode/error.h"
#include "codemode/json.h"
#include "codemode/sandbox.h"

#include "mcp/catalog/tool_catalog.h"
#include "mcp/code_tool/code_program.h"
#include "mcp/code_tool/diagnostics_log.h"
#include "mcp/policy/mcp_policy.h"
#include "mcp/policy/server_capacity.h"

namespace codemode::mcp {

class CodeTool {
 public:
  // INVALID_CONFIG with more than 128 tools; CONFLICT when two tools share a method name;
  // UNSUPPORTED_PROFILE when `adapter` is qualified for tests only. Programs run in `adapter`
  // (the config's sandbox, sandbox_config.h). `capacity` is the server's (serverWorkers,
  // serverHostOperations), shared with its sessions. `log` takes the server's events (default:
  // its stderr).
  static Result<std::unique_ptr<CodeTool>> create(const ToolCatalog& catalog, McpPolicy policy,
                                                  std::shared_ptr<SandboxAdapter> adapter,
                                                  std::shared_ptr<ServerCapacity> capacity,
                                                  EventLog log = log_to_stderr);
  ~CodeTool();

  // The tools/list entry.
  Json listing() const;
  // A CallToolResult for tools/call {arguments}.
  Json call(const Json& arguments, std::stop_token stop);

  struct Shared;  // everything a call and codemode's broker share; defined in code_tool.cc

 private:
  explicit CodeTool(std::shared_ptr<Shared> shared) : shared_(std::move(shared)) {}
  std::shared_ptr<Shared> shared_;
};

}  // namespace codemode::mcp

#endif  // CODEMODE_MCP_CODE_TOOL_CODE_TOOL_H_
