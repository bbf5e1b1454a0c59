// The tools of a downstream MCP server as codemode Tools named "<server>.<tool>", so that a call
// goes through the broker like any other (input schema, permissions, budget, timeout, output
// schema). From each tools/list entry:
//   input / output   the server's inputSchema / outputSchema (outputSchema absent: any value)
//   effects          annotations.readOnlyHint true: read; otherwise write
//   timeout          the server's configured timeoutMs
// A call is asynchronous: execute sends tools/call and returns; the answer arrives on the
// connection's reader thread. The result becomes the output: structuredContent when present; else,
// when any content block is not text (image, audio, resource), {content: [the blocks, as sent]};
// else the text parsed as JSON, else the text itself (no text: null). isError, a JSON-RPC error, or
// the server's death fail the call; nothing the server said about the failure reaches the caller,
// unless its config sets exposeErrors: then the text of an isError result is the failure's
// tool_message (ToolResponder::fail(text), at most 1 KiB), which direct mode shows the client and
// code mode the program.
//
// A listed tool whose name or schemas codemode cannot take (a name outside [A-Za-z0-9._/-], a
// schema valijson refuses) is skipped and counted, never served half-checked.
//
// Thread-safety: the tools may be called concurrently; `client` must outlive them (they share it).
#ifndef CODEMODE_MCP_DOWNSTREAM_DOWNSTREAM_TOOLS_H_
#define CODEMODE_MCP_DOWNSTREAM_DOWNSTREAM_TOOLS_H_

#include <memory>
#include <vector>

#include "codemode/error.h"
#include "codemode/json.h"
#include "codemode/tool.h"

#include "mcp/downstream/downstream_client.h"

namespace codemode::mcp {

struct DownstreamTools {
  std::vector<Tool> tools;
  std::size_t skipped = 0;  // listed tools that could not be taken
};

// Lists the server's tools (starting it) and defines one Tool per usable entry.
Result<DownstreamTools> load_downstream_tools(std::shared_ptr<DownstreamClient> client);

// One tools/list entry as a Tool. INVALID_CONFIG when it cannot be taken.
Result<Tool> downstream_tool(const std::shared_ptr<DownstreamClient>& client, const Json& listed);

// A CallToolResult's value, as above; nullopt when isError is set or the result is malformed.
std::optional<Json> downstream_output(const Json& call_result);

}  // namespace codemode::mcp

#endif  // CODEMODE_MCP_DOWNSTREAM_DOWNSTREAM_TOOLS_H_
