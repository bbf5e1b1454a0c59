// Command tools: TOOLS.json entries become Tools whose execute runs a host program
// (include/codemode/command_tool.h). Loading checks every field and resolves each command once;
// running is core/process/command_runner.h.
#include "codemode/command_tool.h"

#include <cstdint>
#include <filesystem>
#include <initializer_list>
#include <memory>
#include <set>
#include <string_view>
#include <utility>

#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "codemode/program.h"

#include "core/process/command_path.h"
#include "core/process/command_runner.h"

namespace codemode {
namespace {

using internal::CommandRun;
using internal::CommandSpec;

// What a command sees of the environment: enough for a #! script to find sh, sed and awk, and
// nothing of the host's (no HOME, no tokens, no proxies).
constexpr std::string_view kCommandPath = "PATH=/usr/local/bin:/usr/bin:/bin";
constexpr std::size_t kMaxCommandArguments = 1024;
constexpr std::int64_t kMaxTimeoutMillis = 2'147'483'647;
constexpr std::int64_t kDefaultTimeoutMillis = 30'000;

Error file_error(std::string_view field, std::string_view requirement) {
  std::string message(field);
  message.append(" ").append(requirement);
  return Error::invalid_config("tools_file", std::move(message));
}

std::string field(std::size_t index, std::string_view key = {}) {
  std::string name = "tools[" + std::to_string(index) + "]";
  if (!key.empty()) name.append(".").append(key);
  return name;
}

bool only_keys(const Json& object, std::initializer_list<std::string_view> allowed) {
  for (const auto& [key, value] : object.items()) {
    bool known = false;
    for (std::string_view name : allowed) known = known || key == name;
    if (!known) return false;
  }
  return true;
}

Result<CommandSpec> parse_command(const Json& entry, std::size_t index,
                                  const CommandToolOptions& options) {
  const auto found = entry.find("command");
  if (found == entry.end() || !found->is_array() || found->empty() ||
      found->size() > kMaxCommandArguments) {
    return file_error(field(index, "command"), "must be an array of 1 to 1024 strings.");
  }
  CommandSpec spec{.env = {std::string(kCommandPath)}};
  for (const Json& argument : *found) {
    if (!argument.is_string() ||
        argument.get_ref<const std::string&>().find('\0') != std::string::npos) {
      return file_error(field(index, "command"), "entries must be strings without NUL.");
    }
    spec.argv.push_back(argument.get<std::string>());
  }
  std::optional<std::filesystem::path> path =
      spec.argv[0].empty() ? std::nullopt
                           : internal::resolve_command_path(spec.argv[0], options.base_directory);
  if (!path) return file_error(field(index, "command[0]"), "does not name an executable file.");
  spec.path = path->string();
  return spec;
}

Result<std::string> required_text(const Json& entry, std::size_t index, const char* key) {
  const auto found = entry.find(key);
  if (found == entry.end() || !found->is_string()) {
    return file_error(field(index, key), "must be a string.");
  }
  return found->get<std::string>();
}

Result<Schema> optional_schema(const Json& entry, std::size_t index, const char* key) {
  const auto found = entry.find(key);
  if (found == entry.end()) return Schema::any();
  Result<Schema> schema = Schema::compile(*found);
  if (!schema.ok()) {
    return file_error(field(index, key), "is not a supported draft 7 JSON Schema.");
  }
  return schema;
}

std::optional<std::int64_t> as_int64(const Json& value) {
  if (value.is_number_unsigned()) {
    const auto unsigned_value = value.get<std::uint64_t>();
    if (unsigned_value > static_cast<std::uint64_t>(INT64_MAX)) return std::nullopt;
    return static_cast<std::int64_t>(unsigned_value);
  }
  if (value.is_number_integer()) return value.get<std::int64_t>();
  return std::nullopt;
}

// An integer in [minimum, maximum] at `key`, or `fallback` when absent.
Result<std::int64_t> optional_integer(const Json& entry, std::size_t index, const char* key,
                                      std::int64_t fallback, std::int64_t minimum,
                                      std::int64_t maximum) {
  const auto found = entry.find(key);
  if (found == entry.end()) return fallback;
  const std::optional<std::int64_t> value = as_int64(*found);
  if (!value || *value < minimum || *value > maximum) {
    return file_error(field(index, key), "must be an integer from " + std::to_string(minimum) +
                                             " to " + std::to_string(maximum) + ".");
  }
  return *value;
}

Result<std::vector<std::string>> optional_capabilities(const Json& entry, std::size_t index) {
  const auto found = entry.find("capabilities");
  std::vector<std::string> capabilities;
  if (found == entry.end()) return capabilities;
  if (!found->is_array()) return file_error(field(index, "capabilities"), "must be an array.");
  for (const Json& capability : *found) {
    if (!capability.is_string()) {
      return file_error(field(index, "capabilities"), "entries must be strings.");
    }
    capabilities.push_back(capability.get<std::string>());
  }
  return capabilities;
}

void answer(const CommandRun& run, const ToolResponder& respond) {
  switch (run.ending) {
    case CommandRun::Ending::kExitedZero: {
      Result<Json> output = parse_json(run.stdout_text, {.max_bytes = kMaxCommandOutputBytes});
      if (output.ok()) return respond.succeed(std::move(*output));
      return respond.fail();
    }
    case CommandRun::Ending::kNotStarted:
      return respond.refuse();
    case CommandRun::Ending::kStopped:
      return;  // the broker has answered already (timeout or cancellation)
    case CommandRun::Ending::kFailed:
    case CommandRun::Ending::kOutputTooLarge:
      return respond.fail();
  }
}

ToolExecuteFn command_execute(std::shared_ptr<const CommandSpec> spec) {
  return [spec](const Json& input, const ToolContext& context, ToolResponder respond) {
    const JsonLimits limits{.max_bytes = CodeLimitMaxima::kMaxToolInputBytes};
    Result<std::string> text = serialize_json(input, limits);
    if (!text.ok()) return respond.refuse();
    answer(internal::run_command(*spec, *text, kMaxCommandOutputBytes, context.stop_token),
           respond);
  };
}

// The fields of one entry other than the command, as ToolOptions.
Result<ToolOptions> parse_tool_options(const Json& entry, std::size_t index) {
  ToolOptions options{.input = Schema::any(), .output = Schema::any()};
  for (auto [key, target] : {std::pair{"id", &options.id}, std::pair{"version", &options.version},
                             std::pair{"description", &options.description}}) {
    Result<std::string> text = required_text(entry, index, key);
    if (!text.ok()) return std::move(text).error();
    *target = std::move(*text);
  }
  Result<std::string> effects = required_text(entry, index, "effects");
  if (!effects.ok()) return std::move(effects).error();
  std::optional<ToolEffects> parsed_effects = tool_effects_from_string(*effects);
  if (!parsed_effects) {
    return file_error(field(index, "effects"), "must be none, read, write or host.");
  }
  options.effects = *parsed_effects;
  return options;
}

Status parse_tool_limits(const Json& entry, std::size_t index, ToolOptions& options) {
  Result<std::int64_t> cost = optional_integer(entry, index, "costMicros", 0, 0, kMaxSafeInteger);
  if (!cost.ok()) return std::move(cost).error();
  Result<std::int64_t> timeout =
      optional_integer(entry, index, "timeoutMs", kDefaultTimeoutMillis, 1, kMaxTimeoutMillis);
  if (!timeout.ok()) return std::move(timeout).error();
  Result<std::vector<std::string>> capabilities = optional_capabilities(entry, index);
  if (!capabilities.ok()) return std::move(capabilities).error();
  options.cost_micros = *cost;
  options.timeout = std::chrono::milliseconds(*timeout);
  options.capabilities = std::move(*capabilities);
  return {};
}

Status parse_tool_schemas(const Json& entry, std::size_t index, ToolOptions& options) {
  Result<Schema> input = optional_schema(entry, index, "inputSchema");
  if (!input.ok()) return std::move(input).error();
  Result<Schema> output = optional_schema(entry, index, "outputSchema");
  if (!output.ok()) return std::move(output).error();
  options.input = std::move(*input);
  options.output = std::move(*output);
  return {};
}

// What an approval binds of a command (ToolBinding): its resolved argv, and by content its
// executable and every argument that names a regular file now (relative ones against the working
// directory the command will run in).
ToolBinding command_binding(const CommandSpec& spec) {
  ToolBinding binding;
  Json command = Json::array({spec.path});
  binding.files.push_back(spec.path);
  for (std::size_t i = 1; i < spec.argv.size(); ++i) {
    command.push_back(spec.argv[i]);
    const std::string& argument = spec.argv[i];
    if (argument.empty() || binding.files.size() >= 1024) continue;
    std::error_code error;
    const std::filesystem::path file = std::filesystem::absolute(argument, error);
    if (!error && std::filesystem::is_regular_file(file, error) && !error) {
      binding.files.push_back(file.lexically_normal().string());
    }
  }
  binding.description = Json{{"command", std::move(command)}};
  return binding;
}

Result<Tool> parse_tool(const Json& entry, std::size_t index, const CommandToolOptions& options) {
  if (!entry.is_object() ||
      !only_keys(entry, {"id", "version", "description", "inputSchema", "outputSchema", "effects",
                         "capabilities", "costMicros", "timeoutMs", "command"})) {
    return file_error(field(index), "must be an object of the documented fields only.");
  }
  Result<ToolOptions> tool = parse_tool_options(entry, index);
  if (!tool.ok()) return std::move(tool).error();
  if (Status status = parse_tool_limits(entry, index, *tool); !status.ok()) return status.error();
  if (Status status = parse_tool_schemas(entry, index, *tool); !status.ok()) return status.error();
  Result<CommandSpec> spec = parse_command(entry, index, options);
  if (!spec.ok()) return std::move(spec).error();
  tool->binding = command_binding(*spec);
  tool->execute = command_execute(std::make_shared<const CommandSpec>(std::move(*spec)));
  Result<Tool> defined = define_tool(std::move(*tool));
  if (!defined.ok()) return file_error(field(index) + ":", defined.error().message);
  return defined;
}

}  // namespace

Result<std::vector<Tool>> load_command_tools(const Json& tools_json,
                                             const CommandToolOptions& options) {
  const auto tools = tools_json.is_object() ? tools_json.find("tools") : tools_json.end();
  if (!tools_json.is_object() || !only_keys(tools_json, {"tools"}) || tools == tools_json.end() ||
      !tools->is_array() || tools->size() > kMaxCommandTools) {
    return file_error("The tools file", "must be {\"tools\": [...]} with at most 128 tools.");
  }
  std::vector<Tool> loaded;
  std::set<std::string> ids;
  for (std::size_t index = 0; index < tools->size(); ++index) {
    Result<Tool> tool = parse_tool((*tools)[index], index, options);
    if (!tool.ok()) return std::move(tool).error();
    if (!ids.insert(tool->id()).second) {
      return file_error(field(index, "id"), "repeats the id of an earlier tool.");
    }
    loaded.push_back(std::move(*tool));
  }
  return loaded;
}

}  // namespace codemode
