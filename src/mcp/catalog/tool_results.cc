#include "mcp/catalog/tool_results.h"

#include <algorithm>
#include <optional>
#include <string>
#include <utility>

#include "codemode/rules.h"

namespace codemode::mcp {

std::optional<Json> content_blocks_of(const Json& output) {
  if (!output.is_object() || output.size() != 1 || !output.contains("content")) return std::nullopt;
  const Json& blocks = output.at("content");
  if (!blocks.is_array()) return std::nullopt;
  const auto typed = [](const Json& block) {
    return block.is_object() && block.contains("type") && block.at("type").is_string();
  };
  const auto not_text = [](const Json& block) { return block.at("type") != "text"; };
  if (!std::all_of(blocks.begin(), blocks.end(), typed) ||
      !std::any_of(blocks.begin(), blocks.end(), not_text)) {
    return std::nullopt;
  }
  return blocks;
}

std::string json_text(const Json& value) {
  return value.dump(-1, ' ', false, Json::error_handler_t::replace);
}

Json tool_error_result(std::string_view code, std::string_view message, bool structured) {
  const Json error{{"code", code}, {"message", message}};
  Json result{{"content", Json::array({{{"type", "text"}, {"text", json_text(error)}}})},
              {"isError", true}};
  if (structured) result["structuredContent"] = error;
  return result;
}

Json call_tool_result(const ToolOutcome& outcome, const CatalogEntry& entry) {
  if (!outcome.ok()) {
    // The tool's own words stand in for the fixed message only where the tool chose to give them
    // (a downstream server configured with exposeErrors).
    const Error& error = *outcome.error;
    const std::string& message =
        outcome.tool_message && error.code == ErrorCode::kToolFailed &&
                (error.rule == rules::kToolFailed || is_tool_failure_rule(error.rule))
            ? *outcome.tool_message
            : error.message;
    return tool_error_result(error.rule, message, entry.output_schema.is_null());
  }
  const Json& output = *outcome.output;
  if (entry.origin == ToolOrigin::kDownstream && entry.output_schema.is_null()) {
    if (std::optional<Json> blocks = content_blocks_of(output)) {
      return Json{{"content", std::move(*blocks)}, {"isError", false}};
    }
  }
  Json result{{"content", Json::array({{{"type", "text"}, {"text", json_text(output)}}})},
              {"isError", false}};
  if (output.is_object()) result["structuredContent"] = output;
  return result;
}

}  // namespace codemode::mcp
