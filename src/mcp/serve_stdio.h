// The MCP stdio transport: newline-delimited JSON-RPC on the server's own stdin and stdout.
// stdout carries protocol messages only; anything else codemode says goes to stderr.
//
// Thread-safety: serve_stdio runs on the calling thread until stdin ends.
#ifndef CODEMODE_MCP_SERVE_STDIO_H_
#define CODEMODE_MCP_SERVE_STDIO_H_

#include "mcp/server/mcp_server.h"

namespace codemode::mcp {

// Serves one client over `in_fd` / `out_fd` until `in_fd` ends (the client closed it, which is
// how MCP clients shut a stdio server down); then stops every call in flight and returns.
// A line longer than kMaxMessageBytes is skipped and answered with -32600 (id null).
void serve_stdio(McpServerOptions options, int in_fd, int out_fd);

}  // namespace codemode::mcp

#endif  // CODEMODE_MCP_SERVE_STDIO_H_
