// DownstreamClient: codemode's client for one configured downstream MCP server. It starts the
// server on first use (spawn with the configured command, args, env and cwd; initialize with
// version negotiation; notifications/initialized), and starts a new one on the next use after the
// running one died. Calls in flight when it dies fail with "downstream_exited".
//
// Thread-safety: every method is thread-safe; connecting is serialized.
#ifndef CODEMODE_MCP_DOWNSTREAM_CLIENT_H_
#define CODEMODE_MCP_DOWNSTREAM_CLIENT_H_

#include <memory>
#include <mutex>
#include <optional>
#include <stop_token>
#include <string>
#include <utility>

#include "codemode/error.h"
#include "codemode/json.h"

#include "mcp/downstream_connection.h"
#include "mcp/mcp_config.h"

namespace codemode::mcp {

class DownstreamClient {
 public:
  explicit DownstreamClient(DownstreamServerConfig config) : config_(std::move(config)) {}

  const DownstreamServerConfig& config() const { return config_; }

  // Every tool the server lists (following nextCursor, at most 64 pages). Blocks, bounded by the
  // server's timeout per request.
  Result<Json> list_tools();

  // tools/call; `done` is called once with the CallToolResult or an Error (downstream_exited,
  // downstream_error, cancelled, spawn_failed, downstream_handshake). Returns at once.
  void call_tool(const std::string& name, const Json& arguments, std::stop_token stop,
                 DownstreamConnection::Completion done);

  // The running connection, started (and initialized) if there is none or it died.
  Result<std::shared_ptr<DownstreamConnection>> connection();

 private:
  Result<std::shared_ptr<DownstreamConnection>> connect();
  Result<Json> request_sync(DownstreamConnection& connection, std::string_view method, Json params);

  const DownstreamServerConfig config_;
  std::mutex mu_;
  std::shared_ptr<DownstreamConnection> connection_;
};

}  // namespace codemode::mcp

#endif  // CODEMODE_MCP_DOWNSTREAM_CLIENT_H_
