// DownstreamClient: codemode's client for one configured downstream MCP server. It starts the
// server on first use (spawn with the configured command, args, env and cwd; initialize with
// version negotiation; notifications/initialized), and starts a new one on the next use after the
// running one died. Calls in flight when it dies fail with "downstream_exited".
//
// A (re)start runs as a ConnectAttempt on a thread of its own, bounded by the server's timeoutMs.
// Callers that arrive while it runs wait for that one start (there is never more than one at a
// time), each only until its own stop token fires: a cancelled call leaves at once and the start
// goes on for the next caller (connect_attempt.h says why it is not killed).
//
// Ownership: destroying the client cuts a start in progress short and kills and reaps the server.
// Thread-safety: every method is thread-safe; no lock is held across a handshake.
#ifndef CODEMODE_MCP_DOWNSTREAM_DOWNSTREAM_CLIENT_H_
#define CODEMODE_MCP_DOWNSTREAM_DOWNSTREAM_CLIENT_H_

#include <memory>
#include <mutex>
#include <stop_token>
#include <string>
#include <utility>

#include "codemode/error.h"
#include "codemode/json.h"

#include "mcp/downstream/connect_attempt.h"
#include "mcp/downstream/downstream_connection.h"
#include "mcp/policy/mcp_config.h"

namespace codemode::mcp {

class DownstreamClient {
 public:
  explicit DownstreamClient(DownstreamServerConfig config) : config_(std::move(config)) {}

  const DownstreamServerConfig& config() const { return config_; }

  // Every tool the server lists (following nextCursor, at most 64 pages). Blocks, bounded by the
  // server's timeout per request (the start included).
  Result<Json> list_tools();

  // tools/call; `done` is called once with the CallToolResult or an Error (downstream_exited,
  // downstream_error, cancelled, spawn_failed, downstream_handshake). Blocks only while the server
  // is (re)started, and then only until `stop` fires (`done` gets CANCELLED "cancelled"); the
  // call itself is answered asynchronously.
  void call_tool(const std::string& name, const Json& arguments, std::stop_token stop,
                 DownstreamConnection::Completion done);

  // The running connection, started (and initialized) if there is none or it died. Waits for the
  // start until `stop` fires: then CANCELLED "cancelled".
  Result<std::shared_ptr<DownstreamConnection>> connection(std::stop_token stop = {});

 private:
  std::shared_ptr<ConnectAttempt> current_attempt();

  const DownstreamServerConfig config_;
  std::mutex mu_;  // guards attempt_ only; never held while a server starts
  // The running start, or the last one (whose outcome holds the connection in use).
  std::shared_ptr<ConnectAttempt> attempt_;
};

}  // namespace codemode::mcp

#endif  // CODEMODE_MCP_DOWNSTREAM_DOWNSTREAM_CLIENT_H_
