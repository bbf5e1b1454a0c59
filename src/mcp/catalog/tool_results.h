// How a tool call's outcome becomes an MCP CallToolResult, in one place:
//   succeeded   an object output: structuredContent = output, plus the same JSON as text;
//               any other output: the JSON as text only (structuredContent must be an object);
//               a downstream tool's non-text content (images, audio, resources; without an
//               outputSchema): its blocks as the content, as the server sent them
//   otherwise   isError: true, content = the JSON {code: <rule>, message} as text, and the same
//               object as structuredContent unless the tool advertises an outputSchema (clients
//               check structuredContent against it even on errors)
// `code` is the Error's rule (snake_case, stable); the message is codemode's own fixed text, or
// the tool's own words when it gave them (ToolOutcome::tool_message, exposeErrors).
//
// Thread-safety: pure functions.
#ifndef CODEMODE_MCP_CATALOG_TOOL_RESULTS_H_
#define CODEMODE_MCP_CATALOG_TOOL_RESULTS_H_

#include <optional>
#include <string_view>

#include "codemode/json.h"
#include "codemode/outcome.h"

#include "mcp/catalog/tool_catalog.h"

namespace codemode::mcp {

Json call_tool_result(const ToolOutcome& outcome, const CatalogEntry& entry);

// The content blocks of an output downstream_output (downstream/downstream_tools.h) made from
// non-text content: `output` is exactly {content: [...]}, every block an object with a string type,
// at least one not "text". nullopt for any other output. Direct mode returns these blocks to the
// client as they came.
std::optional<Json> content_blocks_of(const Json& output);

// A failed call: {code, message} as described above. `structured` says whether to add
// structuredContent.
Json tool_error_result(std::string_view code, std::string_view message, bool structured = true);

// Compact JSON text as MCP's text content carries it; invalid UTF-8 (never expected: every value
// passed the JSON boundary) is replaced rather than thrown.
std::string json_text(const Json& value);

}  // namespace codemode::mcp

#endif  // CODEMODE_MCP_CATALOG_TOOL_RESULTS_H_
