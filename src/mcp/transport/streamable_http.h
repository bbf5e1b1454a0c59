// MCP's Streamable HTTP transport (protocol 2025-06-18 and 2025-11-25) over HttpServer: one
// endpoint path; POST carries one JSON-RPC message; a request is answered on an event stream (its
// progress notifications, then its response) or, for a client that accepts only JSON, as one JSON
// body; notifications and responses get 202. `initialize` opens a session whose id (128 random
// bits) the client sends back in Mcp-Session-Id; DELETE ends it, and so does idleness: a session
// with no request in flight that got none for session_idle_timeout is ended when the next request
// to the server arrives (its client then gets 404 and, as MCP says, initializes again). GET gets
// 405: this server sends nothing that is not tied to a request. Every request is checked first: the
// path, then who may use the server as http/http_access.h rules for both of codemode's HTTP
// servers (on loopback a Host it serves; an Origin, when present, its own or an allowed one; the
// bearer token when one is configured), then a supported MCP-Protocol-Version when the header is
// present; the session last.
//
// Ownership and thread-safety: McpHttpTransport owns its sessions and their endpoints; destroying
// it stops the HTTP server first, then ends every session.
#ifndef CODEMODE_MCP_TRANSPORT_STREAMABLE_HTTP_H_
#define CODEMODE_MCP_TRANSPORT_STREAMABLE_HTTP_H_

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "codemode/error.h"
#include "codemode/json.h"

#include "http/http_access.h"
#include "http/http_server.h"
#include "mcp/transport/mcp_endpoint.h"

namespace codemode::mcp {

using http::HttpExchange;
using http::HttpHeaders;
using http::HttpRequest;
using http::HttpServer;
using http::HttpServerOptions;

struct McpHttpOptions {
  // Address 127.0.0.1 by default. Many MCP clients share one address (agents on one host, all
  // behind a gateway), each holding a connection per request in flight and some kept alive: so
  // many connections in all, and a cap per address only on those a slow client holds (requests
  // not yet whole, HttpServerOptions::max_incomplete_per_peer).
  HttpServerOptions http{.max_connections = 256, .max_incomplete_per_peer = 32};
  std::string path = "/mcp";  // the one endpoint
  // Origins allowed besides the server's own ("http://" + a Host it serves), exactly as browsers
  // send them, e.g. "https://app.example.com".
  std::vector<std::string> allowed_origins;
  // When set, every request needs "Authorization: Bearer <token>". Required when the address is
  // not loopback; http::is_valid_access_token (see check_http_access). `codemode mcp` takes it
  // from the environment (CODEMODE_MCP_TOKEN), never from its command line, which other users can
  // read.
  std::optional<std::string> bearer_token;
  std::size_t max_sessions = 64;  // past it initialize gets 503
  std::chrono::milliseconds session_idle_timeout = std::chrono::minutes(30);
  std::vector<std::string> protocol_versions = {"2025-11-25", "2025-06-18"};
};

// Who may reach the server, checked before it starts (http::check_listen): INVALID_CONFIG with
// rule "http_token_required" when the address is not loopback (127.0.0.0/8) and no bearer token
// is set (anything that can connect would run the tools), rule "http_token" when the token is not
// 32 to 256 characters of A-Z a-z 0-9 . _ ~ - (http::is_valid_access_token), rule "http_listen"
// when the address is not an IPv4 literal.
Status check_http_access(const McpHttpOptions& options);

class McpHttpTransport {
 public:
  // Starts serving; see check_http_access and HttpServer::start for errors.
  static Result<std::unique_ptr<McpHttpTransport>> start(McpHttpOptions options,
                                                         McpEndpointFactory make_endpoint);
  ~McpHttpTransport();

  std::uint16_t port() const { return server_->port(); }

 private:
  class Session;
  // A session and its endpoint. The endpoint is held here and by the requests being handled,
  // never by the endpoint's own threads (their `send` holds the Session only, to deliver): so an
  // endpoint is never destroyed, and its threads never joined, on one of those threads.
  struct SessionEntry {
    std::shared_ptr<Session> session;
    std::shared_ptr<McpEndpoint> endpoint;
  };
  McpHttpTransport(McpHttpOptions options, McpEndpointFactory make_endpoint);
  void handle(const HttpRequest& request, HttpExchange& exchange);
  std::optional<std::pair<int, std::string_view>> refusal(const HttpRequest& request) const;
  void post(const HttpRequest& request, HttpExchange& exchange);
  void initialize(const HttpRequest& request, const Json& message, HttpExchange& exchange);
  void end_session(const HttpRequest& request, HttpExchange& exchange);
  std::optional<SessionEntry> find_session(const HttpRequest& request);
  void end_idle_sessions();

  const McpHttpOptions options_;
  const McpEndpointFactory make_endpoint_;
  http::HttpAccess access_;
  std::mutex mutex_;
  std::map<std::string, SessionEntry> sessions_;  // guarded by mutex_
  std::unique_ptr<HttpServer> server_;            // last: stops first
};

}  // namespace codemode::mcp

#endif  // CODEMODE_MCP_TRANSPORT_STREAMABLE_HTTP_H_
