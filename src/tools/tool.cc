#include "codemode/tool.h"

#include <set>
#include <string>
#include <utility>

#include "core/text/identifiers.h"
#include "core/text/js_whitespace.h"
#include "core/text/utf16.h"
#include "tools/tool_access.h"

namespace codemode {
namespace {

constexpr std::size_t kMaxVersionLength = 128;
constexpr std::size_t kMaxDescriptionLength = 4096;
constexpr std::size_t kMaxCapabilities = 128;
constexpr std::size_t kMaxCapabilityLength = 256;
constexpr std::chrono::milliseconds kMaxTimeout{2'147'483'647};
constexpr std::size_t kMaxBindingDescriptionBytes = 64u << 10;
constexpr std::size_t kMaxBindingFiles = 1024;

Error definition_error(std::string_view field, std::string_view requirement) {
  std::string message = "Tool definition field '";
  message.append(field).append("' ").append(requirement);
  return Error::invalid_config("tool_definition", message);
}

Status check_field_text(std::string_view field, std::string_view value, std::size_t max_units) {
  if (internal::is_js_blank(value)) return definition_error(field, "must not be blank.");
  if (internal::utf16_length(value) > max_units) {
    return definition_error(field, "is longer than its limit.");
  }
  return {};
}

Status check_capabilities(const std::vector<std::string>& capabilities) {
  if (capabilities.size() > kMaxCapabilities) {
    return definition_error("capabilities", "holds more than 128 entries.");
  }
  std::set<std::string_view> seen;
  for (const std::string& capability : capabilities) {
    const std::size_t length = internal::utf16_length(capability);
    if (length == 0 || length > kMaxCapabilityLength) {
      return definition_error("capabilities", "entries must be 1 to 256 characters.");
    }
    if (!seen.insert(capability).second) {
      return definition_error("capabilities", "entries must be unique.");
    }
  }
  return {};
}

Status check_behaviour(const ToolOptions& options) {
  if (to_string(options.effects).empty()) {
    return definition_error("effects", "must be none, read, write or host.");
  }
  if (options.cost_micros < 0 || options.cost_micros > kMaxSafeInteger) {
    return definition_error("cost_micros", "must be an integer from 0 to 2^53-1.");
  }
  if (options.timeout.count() < 1 || options.timeout > kMaxTimeout) {
    return definition_error("timeout", "must be 1 to 2147483647 milliseconds.");
  }
  if (!options.execute) return definition_error("execute", "is required.");
  return {};
}

Status check_binding(const ToolBinding& binding) {
  if (!binding.description.is_object() ||
      !check_json(binding.description, JsonLimits{.max_bytes = kMaxBindingDescriptionBytes}).ok()) {
    return definition_error("binding.description", "must be a JSON object of at most 64 KiB.");
  }
  if (binding.files.size() > kMaxBindingFiles) {
    return definition_error("binding.files", "holds more than 1024 entries.");
  }
  for (const std::string& file : binding.files) {
    if (!file.starts_with('/') || file.find('\0') != std::string::npos || file.size() > 4096) {
      return definition_error("binding.files", "entries must be absolute paths.");
    }
  }
  return {};
}

Status check_definition(const ToolOptions& options) {
  if (!internal::is_identifier(options.id)) {
    return definition_error("id", "must match ^[A-Za-z][A-Za-z0-9._/-]{0,127}$.");
  }
  if (auto s = check_field_text("version", options.version, kMaxVersionLength); !s) return s;
  if (auto s = check_field_text("description", options.description, kMaxDescriptionLength); !s)
    return s;
  if (auto s = check_capabilities(options.capabilities); !s) return s;
  if (auto s = check_binding(options.binding); !s) return s;
  return check_behaviour(options);
}

Json manifest_of(const ToolOptions& options) {
  return Json{{"id", options.id},
              {"version", options.version},
              {"description", options.description},
              {"effects", to_string(options.effects)},
              {"capabilities", options.capabilities},
              {"costMicros", options.cost_micros},
              {"inputJsonSchema", options.input.document()}};
}

}  // namespace

Tool::Tool(std::shared_ptr<const Definition> definition) : definition_(std::move(definition)) {}

const std::string& Tool::id() const { return definition_->options.id; }
const std::string& Tool::version() const { return definition_->options.version; }
const std::string& Tool::description() const { return definition_->options.description; }
const Schema& Tool::input_schema() const { return definition_->options.input; }
const Schema& Tool::output_schema() const { return definition_->options.output; }
ToolEffects Tool::effects() const { return definition_->options.effects; }
const std::vector<std::string>& Tool::capabilities() const {
  return definition_->options.capabilities;
}
std::int64_t Tool::cost_micros() const { return definition_->options.cost_micros; }
std::chrono::milliseconds Tool::timeout() const { return definition_->options.timeout; }
bool Tool::non_blocking() const { return definition_->options.non_blocking; }
const ToolBinding& Tool::binding() const { return definition_->options.binding; }
const Json& Tool::manifest() const { return definition_->manifest; }

Result<Tool> define_tool(ToolOptions options) {
  if (auto s = check_definition(options); !s) return std::move(s).error();
  Json manifest = manifest_of(options);
  return Tool(std::make_shared<const Tool::Definition>(
      Tool::Definition{.options = std::move(options), .manifest = std::move(manifest)}));
}

}  // namespace codemode
