// ToolCatalog: the tools one `codemode mcp` server exposes, fixed at start (the server starts from
// no capabilities and serves only what its config declared). Each entry is a codemode::Tool, so
// every call goes through the broker; the catalog adds what MCP shows of it: its MCP name, its
// tools/list entry and whether its output may be sent as structuredContent.
//
// Thread-safety: immutable once built; find and list may be called from any thread.
#ifndef CODEMODE_MCP_CATALOG_TOOL_CATALOG_H_
#define CODEMODE_MCP_CATALOG_TOOL_CATALOG_H_

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "codemode/error.h"
#include "codemode/json.h"
#include "codemode/tool.h"

namespace codemode::mcp {

// Where a tool comes from: the config's command tools (or a library host), or a downstream server.
enum class ToolOrigin : int { kHost = 1, kDownstream };

struct CatalogEntry {
  Tool tool;
  ToolOrigin origin = ToolOrigin::kHost;
  // The outputSchema advertised, when the tool's output schema is an object schema (MCP requires
  // structuredContent to be an object); null otherwise.
  Json output_schema;
};

class ToolCatalog {
 public:
  // Adds `tool` under its id. CONFLICT (rule "tool_name_collision") when the name is taken.
  Status add(Tool tool, ToolOrigin origin = ToolOrigin::kHost);

  const CatalogEntry* find(std::string_view name) const;
  // The tools/list result's "tools" array, in name order (deterministic across calls).
  Json list() const;
  std::size_t size() const { return entries_.size(); }
  std::vector<Tool> tools() const;

 private:
  std::map<std::string, CatalogEntry, std::less<>> entries_;
};

// The tools/list entry of one tool: name, description, inputSchema, outputSchema (when an object
// schema), annotations {readOnlyHint: effects none or read}.
Json describe_tool(const CatalogEntry& entry);

}  // namespace codemode::mcp

#endif  // CODEMODE_MCP_CATALOG_TOOL_CATALOG_H_
