// McpServer: the MCP methods of `codemode mcp`, independent of the transport. The transport hands
// it each message a client sent (handle) and gives it a thread-safe `send` for what goes back:
//   initialize                 version negotiation (2025-11-25, 2025-06-18: the client's when we
//                              speak it, else our latest), capabilities {tools}, serverInfo
//   notifications/initialized  noted; ping answers {} at any time
//   tools/list                 the catalog, one page, deterministic order
//   tools/call                 on its own thread, through the broker (permissions, schemas,
//                              budget, timeout); the server-wide invocation cap fails fast and
//                              the host-operation cap queues, for a bounded wait
//                              (server_capacity.h)
//   notifications/cancelled    stops that call; its response is not sent
// A tools/call whose _meta.progressToken is set gets notifications/progress every
// progress_interval while it runs (progress_heartbeat.h).
// Protocol errors are JSON-RPC errors (-32600 before initialize or for a duplicate id, -32601
// unknown method, -32602 bad params or unknown tool); a tool's failure is a tool result with
// isError (tool_results.h).
//
// Thread-safety: handle is called from one thread (the transport's reader); `send` is called from
// that thread and from call threads. shutdown() stops and joins every call.
#ifndef CODEMODE_MCP_SERVER_MCP_SERVER_H_
#define CODEMODE_MCP_SERVER_MCP_SERVER_H_

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <string>

#include "codemode/json.h"
#include "codemode/outcome.h"
#include "codemode/permissions.h"

#include "mcp/catalog/tool_catalog.h"
#include "mcp/code_tool/code_tool.h"
#include "mcp/policy/mcp_policy.h"
#include "mcp/policy/server_capacity.h"
#include "mcp/server/call_registry.h"
#include "mcp/server/progress_heartbeat.h"
#include "mcp/transport/json_rpc.h"
#include "mcp/transport/mcp_endpoint.h"

namespace codemode::mcp {

struct McpServerOptions {
  ToolCatalog catalog;
  // Code mode: when set, the server lists and serves only this tool (named "code"); the catalog's
  // tools are reachable through it alone.
  std::shared_ptr<CodeTool> code_tool;
  McpPolicy policy;
  // The server-wide caps, shared by every session (every McpServer) of one `codemode mcp`;
  // null: this server makes its own from `policy`.
  std::shared_ptr<ServerCapacity> capacity;
  std::string instructions;
  // Bounds of one direct-mode call's arguments and output, as compact JSON.
  std::size_t max_tool_input_bytes = 1u << 20;
  std::size_t max_tool_output_bytes = 1u << 20;
  // How often a call with a progress token reports progress while it runs.
  std::chrono::milliseconds progress_interval{1000};
};

// An McpEndpoint (transport/mcp_endpoint.h), so the same server serves a stdio client or one HTTP
// session.
class McpServer : public McpEndpoint {
 public:
  using SendFn = std::function<void(const Json& message)>;
  McpServer(McpServerOptions options, SendFn send);
  ~McpServer() override { shutdown(); }

  // One message from the client. Parse failures are answered here too.
  void handle_line(std::string_view line) override;
  void handle(const RpcMessage& message);

  // Stops every call in flight and waits for their threads.
  void shutdown() { calls_.stop_all_and_join(); }

 private:
  void handle_request(const RpcMessage& request);
  void handle_notification(const RpcMessage& notification);
  Json initialize(const Json& params);
  void call_tool(const RpcMessage& request);
  void call_code_tool(const RpcMessage& request);
  // Runs `answer` on a call thread under an invocation slot and sends the result it returns (none
  // when the client cancelled). Past the server's cap: server_invocations_limit at once.
  using AnswerFn = std::function<Json(std::stop_token stop)>;
  void admit(const RpcMessage& request, AnswerFn answer);
  Json run_call(const RpcMessage& request, const CatalogEntry& entry, std::stop_token stop);
  // One direct-mode call: a host-operation slot (queued, within the policy's wait), then the
  // broker.
  ToolOutcome dispatch(const CatalogEntry& entry, const Json& input, std::stop_token stop);
  std::unique_ptr<ProgressHeartbeat> progress_for(const Json& request_params);

  McpServerOptions options_;
  SendFn send_;
  Permissions grants_;
  std::shared_ptr<ServerCapacity> capacity_;
  CallRegistry calls_;
  std::atomic<std::uint64_t> next_call_ = 1;
  bool initialized_ = false;
};

}  // namespace codemode::mcp

#endif  // CODEMODE_MCP_SERVER_MCP_SERVER_H_
