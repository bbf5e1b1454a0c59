// define_durable_workflow: every check of a workflow definition, its phase tools, and the
// manifest + digest that runs and approvals refer to.
#include "codemode/workflow.h"

#include <algorithm>
#include <set>
#include <utility>

#include "core/json/json_text.h"
#include "core/text/identifiers.h"
#include "core/text/js_whitespace.h"
#include "core/text/utf16.h"
#include "workflow/definition/hash_material.h"
#include "workflow/definition/phase_id.h"
#include "workflow/definition/phase_tool.h"
#include "workflow/definition/reviewable_text.h"

namespace codemode {

struct DurableWorkflow::Definition {
  std::string id;
  std::string version;
  std::string digest;
  Json manifest;
  Schema input_schema;
  Schema output_schema;
  Scope audit_scope;
  std::string audit_scope_digest;
  std::vector<Phase> phases;
  WorkflowBinding result;
};

namespace {

Error definition_error(std::string message) {
  return Error::invalid_config("workflow_definition", std::move(message));
}

bool is_short_text(const std::string& text, std::size_t max) {
  return internal::is_valid_utf8(text) && !internal::is_js_blank(text) &&
         internal::utf16_length(text) <= max;
}

// The phase's dependencies: the listed ones and the one its binding implies, each an earlier
// phase, in phase order.
Result<std::vector<std::string>> dependencies_of(const WorkflowPhaseOptions& phase,
                                                 const std::vector<std::string>& earlier) {
  std::set<std::string, std::less<>> wanted(phase.depends_on.begin(), phase.depends_on.end());
  if (wanted.size() != phase.depends_on.size()) {
    return definition_error("phases[].dependsOn must not list a phase twice.");
  }
  if (!phase.input.from_workflow_input()) wanted.insert(phase.input.phase_id());
  std::vector<std::string> ordered;
  for (const std::string& id : earlier) {
    if (wanted.erase(id) == 1) ordered.push_back(id);
  }
  if (!wanted.empty()) {
    return definition_error(
        "phases[].dependsOn and phases[].input may only name phases listed before it.");
  }
  return ordered;
}

Result<DurableWorkflow::Phase> define_phase(WorkflowPhaseOptions options,
                                            const std::vector<std::string>& earlier,
                                            const std::string& scope_digest) {
  if (!internal::is_phase_id(options.id)) {
    return definition_error(
        "phases[].id must match ^[A-Za-z][A-Za-z0-9._-]{0,127}$ and not be constructor, "
        "prototype or __proto__.");
  }
  if (std::find(earlier.begin(), earlier.end(), options.id) != earlier.end()) {
    return Error::conflict("duplicate_phase", "Workflow phase ids must be unique.");
  }
  if (Status shown = internal::check_phase_source(options.id, options.program.source());
      !shown.ok()) {
    return std::move(shown).error();
  }
  Result<std::vector<std::string>> dependencies = dependencies_of(options, earlier);
  if (!dependencies.ok()) return std::move(dependencies).error();
  Result<Tool> tool = internal::make_phase_tool(options.program, scope_digest);
  if (!tool.ok()) return std::move(tool).error();
  return DurableWorkflow::Phase{.id = std::move(options.id),
                                .program = std::move(options.program),
                                .tool = std::move(*tool),
                                .input = std::move(options.input),
                                .depends_on = std::move(*dependencies)};
}

// The identity of a definition: what its digest covers.
struct Identity {
  const std::string& id;
  const std::string& version;
  const Schema& input_schema;
  const Schema& output_schema;
  const std::string& audit_scope_digest;
  const std::vector<DurableWorkflow::Phase>& phases;
  const WorkflowBinding& result;
};

Json manifest_of(const Identity& definition) {
  Json phases = Json::array();
  for (const DurableWorkflow::Phase& phase : definition.phases) {
    phases.push_back({{"id", phase.id},
                      {"tool", phase.tool.id()},
                      {"toolVersion", phase.tool.version()},
                      {"input", phase.input.to_json()},
                      {"dependsOn", phase.depends_on}});
  }
  return Json{{"format", 1},
              {"id", definition.id},
              {"version", definition.version},
              {"inputSchema", definition.input_schema.document()},
              {"outputSchema", definition.output_schema.document()},
              {"auditScope", definition.audit_scope_digest},
              {"phases", std::move(phases)},
              {"result", definition.result.to_json()}};
}

}  // namespace

Result<std::string> scope_digest(const Scope& scope) {
  auto bounded = [](const std::string& id) {
    return !id.empty() && internal::is_valid_utf8(id) && internal::utf16_length(id) <= 256;
  };
  if (!bounded(scope.principal_id) || !bounded(scope.project_id)) {
    return Error::invalid_config("audit_scope", "A bounded audit scope is required.");
  }
  return internal::hash_material_digest(
      internal::kScopeDomain,
      Json{{"principalId", scope.principal_id}, {"projectId", scope.project_id}});
}

Result<DurableWorkflow> define_durable_workflow(DurableWorkflowOptions options) {
  if (!internal::is_identifier(options.id)) {
    return definition_error("id must match ^[A-Za-z][A-Za-z0-9._/-]{0,127}$.");
  }
  if (!is_short_text(options.version, 128)) {
    return definition_error("version must be a nonempty string of at most 128 characters.");
  }
  Result<std::string> scope = scope_digest(options.audit_scope);
  if (!scope.ok()) return std::move(scope).error();
  if (options.phases.empty() || options.phases.size() > kMaxWorkflowPhases) {
    return definition_error("phases must hold 1 to 128 phases.");
  }
  auto definition = std::make_shared<DurableWorkflow::Definition>(
      DurableWorkflow::Definition{.id = std::move(options.id),
                                  .version = std::move(options.version),
                                  .digest = {},
                                  .manifest = {},
                                  .input_schema = std::move(options.input),
                                  .output_schema = std::move(options.output),
                                  .audit_scope = std::move(options.audit_scope),
                                  .audit_scope_digest = std::move(*scope),
                                  .phases = {},
                                  .result = std::move(options.result)});
  std::vector<std::string> earlier;
  for (WorkflowPhaseOptions& phase_options : options.phases) {
    Result<DurableWorkflow::Phase> phase =
        define_phase(std::move(phase_options), earlier, definition->audit_scope_digest);
    if (!phase.ok()) return std::move(phase).error();
    earlier.push_back(phase->id);
    definition->phases.push_back(std::move(*phase));
  }
  if (!definition->result.from_workflow_input() &&
      std::find(earlier.begin(), earlier.end(), definition->result.phase_id()) == earlier.end()) {
    return definition_error("result may only name a phase of the workflow.");
  }
  definition->manifest = manifest_of(Identity{.id = definition->id,
                                              .version = definition->version,
                                              .input_schema = definition->input_schema,
                                              .output_schema = definition->output_schema,
                                              .audit_scope_digest = definition->audit_scope_digest,
                                              .phases = definition->phases,
                                              .result = definition->result});
  Result<std::string> digest =
      internal::hash_material_digest(internal::kWorkflowDomain, definition->manifest);
  if (!digest.ok()) return std::move(digest).error();
  definition->digest = std::move(*digest);
  return DurableWorkflow(std::move(definition));
}

DurableWorkflow::DurableWorkflow(std::shared_ptr<const Definition> definition)
    : definition_(std::move(definition)) {}

const std::string& DurableWorkflow::id() const { return definition_->id; }
const std::string& DurableWorkflow::version() const { return definition_->version; }
const std::string& DurableWorkflow::digest() const { return definition_->digest; }
const Json& DurableWorkflow::manifest() const { return definition_->manifest; }
const Schema& DurableWorkflow::input_schema() const { return definition_->input_schema; }
const Schema& DurableWorkflow::output_schema() const { return definition_->output_schema; }
const Scope& DurableWorkflow::audit_scope() const { return definition_->audit_scope; }
const std::string& DurableWorkflow::audit_scope_digest() const {
  return definition_->audit_scope_digest;
}
const std::vector<DurableWorkflow::Phase>& DurableWorkflow::phases() const {
  return definition_->phases;
}
const WorkflowBinding& DurableWorkflow::result() const { return definition_->result; }

const DurableWorkflow::Phase* DurableWorkflow::find_phase(std::string_view phase_id) const {
  for (const Phase& phase : definition_->phases) {
    if (phase.id == phase_id) return &phase;
  }
  return nullptr;
}

}  // namespace codemode
