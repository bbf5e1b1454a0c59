#include "mcp/downstream/downstream_tools.h"

#include <algorithm>
#include <string>
#include <utility>

#include "core/json/json_text.h"
#include "mcp/transport/json_rpc.h"

namespace codemode::mcp {
namespace {

constexpr std::size_t kMaxDescriptionBytes = 4096;

using internal::cut_utf8;

Error unusable(std::string_view why) {
  return Error::invalid_config("downstream_tool", std::string(why));
}

// At most kMaxDescriptionBytes, cut on a UTF-8 character boundary; never empty.
std::string description_of(const Json& listed, const std::string& id) {
  std::string text = listed.contains("description") && listed.at("description").is_string()
                         ? listed.at("description").get<std::string>()
                         : std::string();
  text = cut_utf8(std::move(text), kMaxDescriptionBytes);
  if (text.find_first_not_of(" \t\r\n") == std::string::npos) text = "The MCP tool " + id + ".";
  return text;
}

Result<Schema> schema_of(const Json& listed, const char* key) {
  if (!listed.contains(key)) return Schema::any();
  Result<Schema> schema = Schema::compile(listed.at(key));
  if (!schema.ok()) return unusable("A schema of the tool cannot be compiled.");
  return schema;
}

ToolEffects effects_of(const Json& listed) {
  const Json annotations = listed.value("annotations", Json::object());
  const bool read_only = field_is_true(annotations, "readOnlyHint");
  return read_only ? ToolEffects::kRead : ToolEffects::kWrite;
}

std::string joined_text(const Json& content);

// The failed result's text (ToolResponder::fail cuts it to 1 KiB).
std::string error_text_of(const Json& call_result) {
  return call_result.is_object() && call_result.contains("content") &&
                 call_result.at("content").is_array()
             ? joined_text(call_result.at("content"))
             : std::string();
}

void answer(bool expose_errors, const Result<Json>& result, const ToolResponder& respond) {
  if (!result.ok()) return respond.fail();
  std::optional<Json> output = downstream_output(*result);
  if (output) return respond.succeed(std::move(*output));
  if (expose_errors) return respond.fail(error_text_of(*result));
  respond.fail();
}

ToolExecuteFn execute_for(std::shared_ptr<DownstreamClient> client, std::string name) {
  return [client = std::move(client), name = std::move(name)](
             const Json& input, const ToolContext& context, ToolResponder respond) {
    // The completion runs on the connection's reader thread and holds no reference to the
    // client: were it the last, the client (and the connection, which joins that thread) would
    // be destroyed on the thread it joins.
    client->call_tool(name, input, context.stop_token,
                      [expose_errors = client->config().expose_errors,
                       respond](Result<Json> result) { answer(expose_errors, result, respond); });
  };
}

std::string joined_text(const Json& content) {
  std::string text;
  for (const Json& block : content) {
    if (!field_equals(block, "type", "text")) continue;
    const Json& part = block.value("text", Json());
    if (!part.is_string()) continue;
    if (!text.empty()) text.push_back('\n');
    text += part.get<std::string>();
  }
  return text;
}

}  // namespace

std::optional<Json> downstream_output(const Json& call_result) {
  if (!call_result.is_object()) return std::nullopt;
  // isError set, or not a boolean (malformed): a failure either way.
  if (call_result.contains("isError") && !call_result.at("isError").is_boolean())
    return std::nullopt;
  if (field_is_true(call_result, "isError")) return std::nullopt;
  if (call_result.contains("structuredContent")) return call_result.at("structuredContent");
  const Json content = call_result.value("content", Json::array());
  if (!content.is_array()) return std::nullopt;
  // Images, audio and resources have no JSON reading: the blocks are the output, as sent.
  const bool text_only = std::all_of(content.begin(), content.end(), [](const Json& block) {
    return field_equals(block, "type", "text");
  });
  if (!text_only) return Json{{"content", content}};
  const std::string text = joined_text(content);
  if (text.empty()) return Json(nullptr);
  Result<Json> parsed = parse_json(text);
  if (parsed.ok()) return std::move(*parsed);
  return Json(text);
}

Result<Tool> downstream_tool(const std::shared_ptr<DownstreamClient>& client, const Json& listed) {
  if (!listed.is_object() || !listed.contains("name") || !listed.at("name").is_string()) {
    return unusable("A listed tool has no name.");
  }
  const std::string name = listed.at("name").get<std::string>();
  const std::string id = client->config().name + "." + name;
  Result<Schema> input = schema_of(listed, "inputSchema");
  if (!input.ok()) return std::move(input).error();
  Result<Schema> output = schema_of(listed, "outputSchema");
  if (!output.ok()) return std::move(output).error();
  return define_tool({.id = id,
                      .version = "mcp",
                      .description = description_of(listed, id),
                      .input = std::move(*input),
                      .output = std::move(*output),
                      .effects = effects_of(listed),
                      .timeout = client->config().timeout,
                      .execute = execute_for(client, name)});
}

Result<DownstreamTools> load_downstream_tools(std::shared_ptr<DownstreamClient> client) {
  Result<Json> listed = client->list_tools();
  if (!listed.ok()) return std::move(listed).error();
  DownstreamTools loaded;
  for (const Json& entry : *listed) {
    Result<Tool> tool = downstream_tool(client, entry);
    if (tool.ok()) {
      loaded.tools.push_back(std::move(*tool));
    } else {
      ++loaded.skipped;
    }
  }
  return loaded;
}

}  // namespace codemode::mcp
