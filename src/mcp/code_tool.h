// CodeTool: code mode's one MCP tool, `code` {code: string}. Each call runs the model's JavaScript
// (code_program.h) as a fresh program in a fresh confined worker through CodeMode::execute, with
// the catalog's tools behind codemode's broker and the policy's budgets as the program's limits:
//   sourceBytes          checked before any worker starts          source_bytes_limit
//   wallTimeMillis       the program's wall and CPU time           deadline_exceeded
//   heapBytes            the program's memoryBytes                 memory_limit
//   hostCalls            maxToolCalls                              max_tool_calls (in the program)
//   hostConcurrency      maxToolConcurrency                        max_tool_concurrency
//   hostResultBytes      each tool output, before the worker sees it
//                                                                  host_result_bytes_limit
//   finalResultBytes     the returned value, measured as compact JSON
//                                                                  final_result_bytes_limit
//   serverWorkers        simultaneous workers, fail fast           server_workers_limit
//   serverHostOperations tool calls in flight, server-wide, queued
// Results: success -> structuredContent {result} and the same JSON as text; failure -> isError with
// structuredContent {code, message}; a program's own throw is code_rejected with its message.
//
// Thread-safety: call may run on many threads at once.
#ifndef CODEMODE_MCP_CODE_TOOL_H_
#define CODEMODE_MCP_CODE_TOOL_H_

#include <atomic>
#include <memory>
#include <semaphore>
#include <stop_token>
#include <string>
#include <vector>

#include "codemode/code_mode.h"
#include "codemode/error.h"
#include "codemode/json.h"

#include "mcp/code_program.h"
#include "mcp/mcp_policy.h"
#include "mcp/tool_catalog.h"

namespace codemode::mcp {

class CodeTool {
 public:
  // INVALID_CONFIG with more than 128 tools; CONFLICT when two tools share a method name.
  static Result<std::unique_ptr<CodeTool>> create(const ToolCatalog& catalog, McpPolicy policy,
                                                  std::string worker_path);
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

#endif  // CODEMODE_MCP_CODE_TOOL_H_
