#include "cli/workflow/workflow_file.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <map>
#include <optional>
#include <utility>

#include "codemode/command_tool.h"

#include "cli/cli_io.h"
#include "cli/cli_limits.h"
#include "core/json/json_keys.h"

namespace codemode::cli {
namespace {

constexpr std::size_t kMaxWorkflowFileBytes = 1u << 20;
constexpr std::size_t kMaxToolsFileBytes = (16u << 20) + (64u << 10);
constexpr std::size_t kMaxApprovers = 64;

Error field_error(const std::string& field, const std::string& rule) {
  return usage_error("WORKFLOW: " + field + " " + rule);
}

Result<Json> read_json(const std::filesystem::path& path, std::size_t max_bytes,
                       const std::string& what) {
  Result<std::string> text = read_file(path.string(), max_bytes, what);
  if (!text.ok()) return std::move(text).error();
  return parse_json_argument(*text, max_bytes, what);
}

Result<Schema> schema_at(const Json& object, const char* key, const std::string& where) {
  if (!object.contains(key)) return Schema::any();
  Result<Schema> schema = Schema::compile(object.at(key));
  if (!schema.ok()) return field_error(where + key, "is not a usable JSON Schema.");
  return schema;
}

Result<WorkflowBinding> binding_at(const Json& object, const char* key, const std::string& where) {
  if (!object.contains(key)) return WorkflowBinding();
  Result<WorkflowBinding> binding = WorkflowBinding::from_json(object.at(key));
  if (!binding.ok()) return field_error(where + key, "is not a binding.");
  return binding;
}

// `codemode run`'s defaults, with the most calls a durable phase may make (its audit holds 64).
CodeLimits phase_default_limits() {
  CodeLimits limits = default_limits();
  limits.max_tool_calls = std::min<std::int64_t>(limits.max_tool_calls, kMaxPhaseToolCalls);
  return limits;
}

bool is_string(const Json& object, const char* key) {
  return object.contains(key) && object.at(key).is_string();
}

Result<std::vector<Tool>> phase_tools(const Json& phase, const std::filesystem::path& directory,
                                      const std::string& where) {
  if (!phase.contains("tools")) return std::vector<Tool>();
  if (!is_string(phase, "tools")) return field_error(where + "tools", "must be a file name.");
  const std::filesystem::path file = directory / phase.at("tools").get<std::string>();
  Result<Json> json = read_json(file, kMaxToolsFileBytes, where + "tools");
  if (!json.ok()) return std::move(json).error();
  return load_command_tools(*json, {.base_directory = file.parent_path().string()});
}

Result<WorkflowPhaseOptions> load_phase(const Json& phase, std::size_t index,
                                        const std::filesystem::path& directory) {
  const std::string where = "phases[" + std::to_string(index) + "].";
  if (!phase.is_object() ||
      !internal::only_keys(phase, {"id", "program", "intent", "tools", "limits", "inputSchema",
                                   "outputSchema", "input", "dependsOn", "profile"}) ||
      !is_string(phase, "id") || !is_string(phase, "program") || !is_string(phase, "intent")) {
    return field_error(where.substr(0, where.size() - 1),
                       "must be an object with id, program and intent, and only the fields of a "
                       "phase.");
  }
  Result<std::string> source =
      read_file((directory / phase.at("program").get<std::string>()).string(), kMaxSourceBytes,
                where + "program");
  if (!source.ok()) return std::move(source).error();
  Result<std::vector<Tool>> tools = phase_tools(phase, directory, where);
  if (!tools.ok()) return std::move(tools).error();
  Result<CodeLimits> limits =
      phase.contains("limits") ? apply_limit_overrides(phase_default_limits(), phase.at("limits"))
                               : Result<CodeLimits>(phase_default_limits());
  if (!limits.ok()) return std::move(limits).error();
  Result<Schema> input = schema_at(phase, "inputSchema", where);
  Result<Schema> output = schema_at(phase, "outputSchema", where);
  Result<WorkflowBinding> binding = binding_at(phase, "input", where);
  if (!input.ok()) return std::move(input).error();
  if (!output.ok()) return std::move(output).error();
  if (!binding.ok()) return std::move(binding).error();
  std::vector<std::string> depends_on;
  if (phase.contains("dependsOn")) {
    const Json& list = phase.at("dependsOn");
    if (!list.is_array()) return field_error(where + "dependsOn", "must list phase ids.");
    for (const Json& id : list) {
      if (!id.is_string()) return field_error(where + "dependsOn", "must list phase ids.");
      depends_on.push_back(id.get<std::string>());
    }
  }
  std::optional<ProgramProfile> profile = ProgramProfile::kStandard;
  if (phase.contains("profile")) {
    profile = phase.at("profile").is_string()
                  ? program_profile_from_string(phase.at("profile").get<std::string>())
                  : std::nullopt;
    if (!profile) return field_error(where + "profile", "must be \"standard\" or \"model\".");
  }
  // A phase program written in TypeScript runs with its types erased, as `codemode run` does.
  const std::string extension =
      std::filesystem::path(phase.at("program").get<std::string>()).extension().string();
  const std::string id = phase.at("id").get<std::string>();
  Result<CodeProgram> program = define_code_program(
      {.id = id,
       .version = "1",
       .intent = phase.at("intent").get<std::string>(),
       .language = extension == ".ts" || extension == ".mts" ? ProgramLanguage::kTypeScript
                                                             : ProgramLanguage::kJavaScript,
       .profile = *profile,
       .source = std::move(*source),
       .input = std::move(*input),
       .output = std::move(*output),
       .input_schema_id = id + ".input",
       .output_schema_id = id + ".output",
       .tools = std::move(*tools),
       .limits = *limits});
  if (!program.ok()) {
    const Error& error = program.error();
    return Error::with_code(error.code, error.rule,
                            "WORKFLOW: " + where + "program: " + error.message);
  }
  return WorkflowPhaseOptions{.id = id,
                              .program = std::move(*program),
                              .input = std::move(*binding),
                              .depends_on = std::move(depends_on)};
}

Result<Scope> scope_of(const Json& file) {
  const Json* scope = file.contains("scope") ? &file.at("scope") : nullptr;
  if (scope == nullptr || !scope->is_object() ||
      !internal::only_keys(*scope, {"principalId", "projectId"}) ||
      !is_string(*scope, "principalId") || !is_string(*scope, "projectId")) {
    return field_error("scope", "must be {\"principalId\", \"projectId\"}.");
  }
  return Scope{.principal_id = scope->at("principalId").get<std::string>(),
               .project_id = scope->at("projectId").get<std::string>()};
}

Result<std::vector<std::string>> approvers_of(const Json& file) {
  const Json* list = file.contains("approvers") ? &file.at("approvers") : nullptr;
  if (list == nullptr || !list->is_array() || list->empty() || list->size() > kMaxApprovers) {
    return field_error("approvers", "must list 1 to 64 people who may approve.");
  }
  std::vector<std::string> approvers;
  for (const Json& name : *list) {
    if (!name.is_string() || name.get_ref<const std::string&>().empty() ||
        name.get_ref<const std::string&>().size() > 256) {
      return field_error("approvers", "must hold names of 1 to 256 characters.");
    }
    approvers.push_back(name.get<std::string>());
  }
  return approvers;
}

// {"alice": "alice.pub", ...}: each approver's Ed25519 public key, a PEM file relative to the
// workflow file. The runtime checks that every approver has one.
Result<std::map<std::string, std::string>> approver_keys_of(
    const Json& file, const std::filesystem::path& directory) {
  std::map<std::string, std::string> keys;
  if (!file.contains("approverKeys")) return keys;
  const Json& listed = file.at("approverKeys");
  if (!listed.is_object() || listed.size() > kMaxApprovers) {
    return field_error("approverKeys", "must map approvers to their public key files.");
  }
  for (const auto& [name, key_file] : listed.items()) {
    if (!key_file.is_string()) {
      return field_error("approverKeys", "must map approvers to their public key files.");
    }
    Result<std::string> pem = read_file((directory / key_file.get<std::string>()).string(),
                                        16u << 10, "WORKFLOW: approverKeys");
    if (!pem.ok()) return std::move(pem).error();
    keys.emplace(name, std::move(*pem));
  }
  return keys;
}

}  // namespace

Result<WorkflowFile> load_workflow_file(const std::string& path) {
  Result<Json> file = read_json(path, kMaxWorkflowFileBytes, "WORKFLOW");
  if (!file.ok()) return std::move(file).error();
  if (!file->is_object() ||
      !internal::only_keys(*file,
                           {"id", "version", "scope", "approvers", "approverKeys", "maxCostMicros",
                            "approvalTtlMs", "inputSchema", "outputSchema", "phases", "result"}) ||
      !is_string(*file, "id") || !is_string(*file, "version")) {
    return usage_error(
        "WORKFLOW: must be an object with id, version, scope, approvers, maxCostMicros, phases "
        "and result, and only the fields of a workflow.");
  }
  if (!file->contains("maxCostMicros") || !file->at("maxCostMicros").is_number_integer()) {
    return field_error("maxCostMicros", "must be an integer.");
  }
  if (!file->contains("phases") || !file->at("phases").is_array()) {
    return field_error("phases", "must be a list of phases.");
  }
  std::chrono::milliseconds approval_ttl{3'600'000};
  if (file->contains("approvalTtlMs")) {
    const Json& ttl = file->at("approvalTtlMs");
    if (!ttl.is_number_integer() || ttl.get<std::int64_t>() < 1'000 ||
        ttl.get<std::int64_t>() > 2'592'000'000) {
      return field_error("approvalTtlMs",
                         "must be an integer from 1000 (1 s) to 2592000000 (30 days).");
    }
    approval_ttl = std::chrono::milliseconds(ttl.get<std::int64_t>());
  }
  if (!file->contains("result")) return field_error("result", "is required.");
  Result<Scope> scope = scope_of(*file);
  if (!scope.ok()) return std::move(scope).error();
  Result<std::vector<std::string>> approvers = approvers_of(*file);
  if (!approvers.ok()) return std::move(approvers).error();
  Result<Schema> input = schema_at(*file, "inputSchema", "");
  Result<Schema> output = schema_at(*file, "outputSchema", "");
  Result<WorkflowBinding> result = binding_at(*file, "result", "");
  if (!input.ok()) return std::move(input).error();
  if (!output.ok()) return std::move(output).error();
  if (!result.ok()) return std::move(result).error();
  std::error_code ignored;
  const std::filesystem::path directory = std::filesystem::absolute(path, ignored).parent_path();
  Result<std::map<std::string, std::string>> approver_keys = approver_keys_of(*file, directory);
  if (!approver_keys.ok()) return std::move(approver_keys).error();
  std::vector<WorkflowPhaseOptions> phases;
  for (std::size_t i = 0; i < file->at("phases").size(); ++i) {
    Result<WorkflowPhaseOptions> phase = load_phase(file->at("phases")[i], i, directory);
    if (!phase.ok()) return std::move(phase).error();
    phases.push_back(std::move(*phase));
  }
  Result<DurableWorkflow> workflow =
      define_durable_workflow({.id = file->at("id").get<std::string>(),
                               .version = file->at("version").get<std::string>(),
                               .input = std::move(*input),
                               .output = std::move(*output),
                               .audit_scope = *scope,
                               .phases = std::move(phases),
                               .result = std::move(*result)});
  if (!workflow.ok()) return std::move(workflow).error();
  return WorkflowFile{.workflow = std::move(*workflow),
                      .scope = std::move(*scope),
                      .max_cost_micros = file->at("maxCostMicros").get<std::int64_t>(),
                      .approvers = std::move(*approvers),
                      .approver_keys = std::move(*approver_keys),
                      .approval_ttl = approval_ttl};
}

}  // namespace codemode::cli
