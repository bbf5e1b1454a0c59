// `codemode mcp --transport http`: McpHttpTransport with one McpServer per session, all sharing
// the server's tools (and, in code mode, its code tool with its server-wide worker cap), served
// until SIGINT or SIGTERM.
#ifndef CODEMODE_MCP_SERVE_HTTP_H_
#define CODEMODE_MCP_SERVE_HTTP_H_

#include <cstdint>
#include <functional>
#include <string>

#include "codemode/error.h"

#include "mcp/server/mcp_server.h"
#include "mcp/transport/streamable_http.h"

namespace codemode::mcp {

// Serves until SIGINT or SIGTERM arrives (waited for with sigwait), then ends every session.
// `on_listening` gets the bound port once requests are accepted. REQUIRES:
// http::block_stop_signals() (http/serve_until_stopped.h) was called before any thread of the
// process was started.
Status serve_http(McpServerOptions options, McpHttpOptions http,
                  const std::function<void(std::uint16_t port)>& on_listening);

}  // namespace codemode::mcp

#endif  // CODEMODE_MCP_SERVE_HTTP_H_
