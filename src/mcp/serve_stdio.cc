#include "mcp/serve_stdio.h"

#include <utility>

#include "mcp/catalog/tool_results.h"
#include "mcp/transport/line_channel.h"

namespace codemode::mcp {

void serve_stdio(McpServerOptions options, int in_fd, int out_fd) {
  LineWriter writer(out_fd);
  McpServer server(std::move(options),
                   [&writer](const Json& message) { writer.write_line(json_text(message)); });
  // Escapes can make a bounded message's text longer than its compact size.
  LineReader reader(in_fd, 2 * kMaxMessageBytes);
  for (;;) {
    LineRead read = reader.read_line();
    if (read.status == LineRead::Status::kLine) {
      server.handle_line(read.line);
    } else if (read.status == LineRead::Status::kOversized) {
      writer.write_line(
          json_text(rpc_error(nullptr, kInvalidRequest, "The message is too large.")));
    } else {
      break;
    }
  }
  server.shutdown();
}

}  // namespace codemode::mcp
