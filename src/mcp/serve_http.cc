#include "mcp/serve_http.h"

#include "http/serve_until_stopped.h"

namespace codemode::mcp {

Status serve_http(McpServerOptions options, McpHttpOptions http,
                  const std::function<void(std::uint16_t port)>& on_listening) {
  // One capacity for every session: the caps are the server's, not each session's.
  if (!options.capacity) options.capacity = ServerCapacity::create(options.policy);
  auto transport = McpHttpTransport::start(std::move(http), [options](McpSendFn send) {
    return std::make_unique<McpServer>(options, std::move(send));
  });
  if (!transport.ok()) return std::move(transport).error();
  on_listening((*transport)->port());
  http::wait_for_stop_signal();
  return {};  // destroying the transport stops the HTTP server, then ends every session
}

}  // namespace codemode::mcp
