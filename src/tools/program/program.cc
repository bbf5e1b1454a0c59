// define_code_program: every check of a program definition, in the order program.h gives (the
// first failure is the error), and the manifest + digest that approvals and audit records refer to.
#include "codemode/program.h"

#include <algorithm>
#include <array>
#include <set>
#include <string>
#include <utility>

#include "core/json/json_text.h"
#include "core/text/identifiers.h"
#include "core/text/js_whitespace.h"
#include "core/text/utf16.h"
#include "tools/program/code_limit_fields.h"

namespace codemode {

struct CodeProgram::Definition {
  Json manifest;
  std::string digest;
  std::string source;
  Schema input_schema;
  Schema output_schema;
  std::vector<Tool> tools;
  CodeLimits limits;
  ProgramLanguage language;
  ProgramProfile profile;
  std::int64_t maximum_cost_micros;
};

namespace {

Error config_error(std::string message) {
  return Error::invalid_config("program_definition", std::move(message));
}

Error limits_error(std::string message) {
  return Error::invalid_config("limits", std::move(message));
}

// A text field: nonempty after trimming, at most `max` UTF-16 code units.
Status check_text(std::string_view name, const std::string& value, std::size_t max) {
  if (internal::is_js_blank(value) || !internal::is_valid_utf8(value) ||
      internal::utf16_length(value) > max) {
    return config_error(std::string(name) + " must be a nonempty string of at most " +
                        std::to_string(max) + " characters.");
  }
  return {};
}

Status check_texts(const CodeProgramOptions& options) {
  const std::array<std::tuple<std::string_view, const std::string*, std::size_t>, 4> fields{{
      {"version", &options.version, 128},
      {"intent", &options.intent, 4096},
      {"inputSchemaId", &options.input_schema_id, 256},
      {"outputSchemaId", &options.output_schema_id, 256},
  }};
  for (const auto& [name, value, max] : fields) {
    if (Status status = check_text(name, *value, max); !status.ok()) return status;
  }
  return {};
}

Status check_source(const CodeProgramOptions& options) {
  if (options.language != ProgramLanguage::kJavaScript &&
      options.language != ProgramLanguage::kTypeScript) {
    return config_error("language must be \"javascript\" or \"typescript\".");
  }
  if (options.profile != ProgramProfile::kStandard && options.profile != ProgramProfile::kModel) {
    return config_error("profile must be \"standard\" or \"model\".");
  }
  if (internal::is_js_blank(options.source) || !internal::is_valid_utf8(options.source)) {
    return config_error("source must be a nonempty string of valid UTF-8.");
  }
  if (options.source.size() > kMaxSourceBytes) {
    return Error::limit_exceeded("source_bytes_limit", "Program source is larger than 1 MiB.");
  }
  return {};
}

using internal::CodeLimitField;
using internal::kCodeLimitFields;

Status check_limits(const CodeLimits& limits) {
  for (const CodeLimitField& field : kCodeLimitFields) {
    const std::int64_t value = limits.*field.member;
    if (value <= 0 || value > kMaxSafeInteger) {
      return limits_error("limits." + std::string(field.name) +
                          " must be a positive safe integer.");
    }
  }
  if (limits.max_tool_concurrency > limits.max_tool_calls) {
    return limits_error("limits.maxToolConcurrency cannot be greater than limits.maxToolCalls.");
  }
  for (const CodeLimitField& field : kCodeLimitFields) {
    if (limits.*field.member > field.maximum) {
      return limits_error("limits." + std::string(field.name) +
                          " exceeds the supported maximum of " + std::to_string(field.maximum) +
                          ".");
    }
  }
  return {};
}

Status check_tools(const std::vector<Tool>& tools) {
  if (tools.size() > kMaxProgramTools) {
    return config_error("tools must list at most 128 tools.");
  }
  std::set<std::string, std::less<>> seen;
  for (const Tool& tool : tools) {
    if (!seen.insert(tool.id()).second) {
      return Error::conflict("duplicate_tool", "Program tools contain \"" + tool.id() +
                                                   "\" twice; tool ids must be unique.");
    }
  }
  return {};
}

// max(tool cost) x maxToolCalls must stay a safe integer, so usage arithmetic never overflows.
Result<std::int64_t> maximum_cost(const std::vector<Tool>& tools, const CodeLimits& limits) {
  std::int64_t most = 0;
  for (const Tool& tool : tools) most = std::max(most, tool.cost_micros());
  if (most != 0 && most > kMaxSafeInteger / limits.max_tool_calls) {
    return Error::limit_exceeded(
        "cost_overflow",
        "The largest tool costMicros times limits.maxToolCalls is larger than 2^53 - 1.");
  }
  return most * limits.max_tool_calls;
}

Status check_import(const std::string& specifier) {
  if (specifier.empty() || !internal::is_valid_utf8(specifier) ||
      internal::utf16_length(specifier) > 256 || specifier.find(':') != std::string::npos ||
      specifier.find('\\') != std::string::npos || specifier.front() == '/') {
    return config_error(
        "approvedImports entries must be 1 to 256 characters with no \":\", no \"\\\" and no "
        "leading \"/\".");
  }
  return {};
}

Status check_imports(const std::vector<std::string>& imports) {
  if (imports.size() > 64) return config_error("approvedImports must list at most 64 modules.");
  std::set<std::string, std::less<>> seen;
  for (const std::string& specifier : imports) {
    if (Status status = check_import(specifier); !status.ok()) return status;
    if (!seen.insert(specifier).second) {
      return Error::conflict(
          "duplicate_import",
          "approvedImports lists the same module twice; entries must be unique.");
    }
  }
  return {};
}

Status check_definition(const CodeProgramOptions& options) {
  if (!internal::is_identifier(options.id)) {
    return config_error(
        "Program id must start with a letter and contain at most 128 letters, digits, \".\", "
        "\"_\", \"/\" or \"-\".");
  }
  if (Status status = check_texts(options); !status.ok()) return status;
  if (Status status = check_source(options); !status.ok()) return status;
  return check_limits(options.limits);
}

Json limits_manifest(const CodeLimits& limits) {
  Json manifest = Json::object();
  for (const CodeLimitField& field : kCodeLimitFields) {
    manifest[std::string(field.name)] = limits.*field.member;
  }
  return manifest;
}

Json build_manifest(const CodeProgramOptions& options) {
  Json tools = Json::array();
  for (const Tool& tool : options.tools) tools.push_back(tool.manifest());
  Json manifest{{"format", 1},
                {"id", options.id},
                {"version", options.version},
                {"intent", options.intent},
                {"language", to_string(options.language)},
                {"inputSchemaId", options.input_schema_id},
                {"outputSchemaId", options.output_schema_id},
                {"approvedImports", options.approved_imports},
                {"tools", std::move(tools)},
                {"limits", limits_manifest(options.limits)},
                {"sourceBytes", options.source.size()}};
  if (options.profile != ProgramProfile::kStandard)
    manifest["profile"] = to_string(options.profile);
  return manifest;
}

}  // namespace

std::string_view to_string(ProgramLanguage language) {
  return language == ProgramLanguage::kTypeScript ? "typescript" : "javascript";
}

std::string_view to_string(ProgramProfile profile) {
  return profile == ProgramProfile::kModel ? "model" : "standard";
}

std::optional<ProgramProfile> program_profile_from_string(std::string_view text) {
  if (text == "standard") return ProgramProfile::kStandard;
  if (text == "model") return ProgramProfile::kModel;
  return std::nullopt;
}

bool is_code_program_digest(std::string_view text) {
  return text.size() == 64 && std::all_of(text.begin(), text.end(), [](char c) {
           return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
         });
}

Result<CodeProgram> define_code_program(CodeProgramOptions options) {
  if (Status status = check_definition(options); !status.ok()) return std::move(status).error();
  if (Status status = check_tools(options.tools); !status.ok()) return std::move(status).error();
  Result<std::int64_t> most = maximum_cost(options.tools, options.limits);
  if (!most.ok()) return std::move(most).error();
  if (Status status = check_imports(options.approved_imports); !status.ok()) {
    return std::move(status).error();
  }
  Json manifest = build_manifest(options);
  Result<std::string> canonical = canonical_json(manifest);
  if (!canonical.ok()) return std::move(canonical).error();
  std::string digest = sha256_hex(*canonical + "\n" + options.source);
  manifest["digest"] = digest;
  auto definition = std::make_shared<const CodeProgram::Definition>(CodeProgram::Definition{
      .manifest = std::move(manifest),
      .digest = std::move(digest),
      .source = std::move(options.source),
      .input_schema = std::move(options.input),
      .output_schema = std::move(options.output),
      .tools = std::move(options.tools),
      .limits = options.limits,
      .language = options.language,
      .profile = options.profile,
      .maximum_cost_micros = *most,
  });
  return CodeProgram(std::move(definition));
}

CodeProgram::CodeProgram(std::shared_ptr<const Definition> definition)
    : definition_(std::move(definition)) {}

const Json& CodeProgram::manifest() const { return definition_->manifest; }
const std::string& CodeProgram::digest() const { return definition_->digest; }
const std::string& CodeProgram::source() const { return definition_->source; }
const Schema& CodeProgram::input_schema() const { return definition_->input_schema; }
const Schema& CodeProgram::output_schema() const { return definition_->output_schema; }
const std::vector<Tool>& CodeProgram::tools() const { return definition_->tools; }
const CodeLimits& CodeProgram::limits() const { return definition_->limits; }
ProgramLanguage CodeProgram::language() const { return definition_->language; }
ProgramProfile CodeProgram::profile() const { return definition_->profile; }
std::int64_t CodeProgram::maximum_cost_micros() const { return definition_->maximum_cost_micros; }

const Tool* CodeProgram::find_tool(std::string_view id) const {
  for (const Tool& tool : definition_->tools) {
    if (tool.id() == id) return &tool;
  }
  return nullptr;
}

}  // namespace codemode
