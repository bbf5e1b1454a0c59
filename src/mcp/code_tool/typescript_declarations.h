// The TypeScript declarations code mode puts in the `code` tool's description, so a model knows
// what `codemode.<server>.<tool>(input)` takes and returns (docs/mcp.md, "Code mode"). Generated
// from each tool's input and output schemas, with JSDoc from their descriptions; deterministic, so
// tools/list gives the same bytes every time. When the full text would pass a size cap, the
// declarations fall back to the namespaces and their method names, and the model discovers the
// rest with codemode.help(name) in the sandbox.
#ifndef CODEMODE_MCP_CODE_TOOL_TYPESCRIPT_DECLARATIONS_H_
#define CODEMODE_MCP_CODE_TOOL_TYPESCRIPT_DECLARATIONS_H_

#include <cstddef>
#include <string>
#include <vector>

#include "codemode/error.h"
#include "codemode/json.h"

namespace codemode::mcp {

// One tool as code mode shows it.
struct ToolDeclaration {
  std::string server;       // the namespace's raw name (a configured server), e.g. "github"
  std::string tool;         // the tool's raw name within it, e.g. "search-issues"
  std::string description;  // may be empty
  Json input_schema;        // a JSON Schema; anything else declares `unknown`
  Json output_schema;       // null when the tool has none: its result is `unknown`
};

// The declaration of one method, as `codemode.help("server.tool")` shows it:
//   /** description */
//   search_issues(input: {...}): Promise<{...}>;
std::string render_method_declaration(const ToolDeclaration& tool, int indent);

// `declare const codemode: { readonly <server>: { <method>... }; ... }` for every tool, servers
// and tools in the given order, with the identifiers of sanitize_identifier. When that is longer
// than `max_bytes`, each server lists its method names only (and when even that is too long, the
// server names only), with a comment pointing at codemode.help. INVALID_CONFIG
// "identifier_collision" when two servers, or two tools of one server, share an identifier.
Result<std::string> render_declarations(const std::vector<ToolDeclaration>& tools,
                                        std::size_t max_bytes);

}  // namespace codemode::mcp

#endif  // CODEMODE_MCP_CODE_TOOL_TYPESCRIPT_DECLARATIONS_H_
