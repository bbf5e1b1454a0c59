#include "mcp/catalog/tool_catalog.h"

#include <utility>

namespace codemode::mcp {
namespace {

bool is_object_schema(const Json& schema) {
  return schema.is_object() && schema.contains("type") && schema.at("type") == "object";
}

// MCP requires inputSchema to be an object schema; a tool that takes any value is shown one that
// takes any object, the only kind of arguments MCP carries.
Json input_schema_of(const Tool& tool) {
  const Json& document = tool.input_schema().document();
  if (is_object_schema(document)) return document;
  return Json{{"type", "object"}};
}

}  // namespace

Status ToolCatalog::add(Tool tool, ToolOrigin origin) {
  const Json& output = tool.output_schema().document();
  CatalogEntry entry{
      .tool = tool, .origin = origin, .output_schema = is_object_schema(output) ? output : Json()};
  if (!entries_.emplace(tool.id(), std::move(entry)).second) {
    return Error::conflict("tool_name_collision", "Two tools have the same name.");
  }
  return {};
}

const CatalogEntry* ToolCatalog::find(std::string_view name) const {
  const auto found = entries_.find(name);
  return found == entries_.end() ? nullptr : &found->second;
}

Json ToolCatalog::list() const {
  Json tools = Json::array();
  for (const auto& [name, entry] : entries_) tools.push_back(describe_tool(entry));
  return tools;
}

std::vector<Tool> ToolCatalog::tools() const {
  std::vector<Tool> tools;
  for (const auto& [name, entry] : entries_) tools.push_back(entry.tool);
  return tools;
}

Json describe_tool(const CatalogEntry& entry) {
  const Tool& tool = entry.tool;
  const bool read_only = tool.effects() <= ToolEffects::kRead;
  Json described{{"name", tool.id()},
                 {"description", tool.description()},
                 {"inputSchema", input_schema_of(tool)},
                 {"annotations", {{"readOnlyHint", read_only}}}};
  if (!entry.output_schema.is_null()) described["outputSchema"] = entry.output_schema;
  return described;
}

}  // namespace codemode::mcp
