// What every transport carries: one side of an MCP session, and the protocol versions spoken.
// The transports (stdio lines, Streamable HTTP) hand messages to an McpEndpoint; McpServer is one,
// and so the same server serves a stdio client or one HTTP session.
#ifndef CODEMODE_MCP_TRANSPORT_MCP_ENDPOINT_H_
#define CODEMODE_MCP_TRANSPORT_MCP_ENDPOINT_H_

#include <functional>
#include <memory>
#include <string_view>

#include "codemode/json.h"

namespace codemode::mcp {

// The MCP versions spoken, newest first.
inline constexpr std::string_view kLatestProtocolVersion = "2025-11-25";
inline constexpr std::string_view kProtocolVersions[] = {"2025-11-25", "2025-06-18"};

// The server side of one MCP session, whatever the transport: it is handed each message the client
// sent, and answers through the `send` it was made with (from any thread).
class McpEndpoint {
 public:
  virtual ~McpEndpoint() = default;
  virtual void handle_line(std::string_view message) = 0;
};

using McpSendFn = std::function<void(const Json& message)>;
using McpEndpointFactory = std::function<std::unique_ptr<McpEndpoint>(McpSendFn send)>;

}  // namespace codemode::mcp

#endif  // CODEMODE_MCP_TRANSPORT_MCP_ENDPOINT_H_
