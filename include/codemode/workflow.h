// DurableWorkflow is a workflow whose steps are programs: each phase runs one CodeProgram in a
// fresh sandbox, only after a person approved that exact program with that exact input
// (workflow_runtime.h). A workflow is checked and content-addressed here, without running it.
//
//   auto workflow = define_durable_workflow({
//       .id = "catalog.quote", .version = "1",
//       .input = quote_input, .output = quote_output,
//       .audit_scope = {.principal_id = "local", .project_id = "demo"},
//       .phases = {{.id = "price", .program = price},
//                  {.id = "discount", .program = discount,
//                   .input = WorkflowBinding::phase_output("price")}},
//       .result = WorkflowBinding::phase_output("discount")}).value();
//
// Each phase becomes a tool derived from its program (phase_tool): id "code." + the first 32 hex
// characters of the program digest, version the full digest, the program's schemas, effects the
// strongest of its nested tools, cost max(nested cost) x maxToolCalls, and exactly the
// capabilities code:execute, code:audit:v2, code:audit-scope:<audit scope digest> and
// code:program:<program digest>. A runtime must hold every grant that tool needs. Approval is
// mandatory for every phase; there is no way to turn it off.
//
// Ownership and thread-safety: DurableWorkflow is an immutable, reference-counted handle.
#ifndef CODEMODE_WORKFLOW_H_
#define CODEMODE_WORKFLOW_H_

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "codemode/error.h"
#include "codemode/export.h"
#include "codemode/json.h"
#include "codemode/outcome.h"
#include "codemode/program.h"
#include "codemode/schema.h"
#include "codemode/tool.h"

namespace codemode {

// Where a phase's input or the workflow's result comes from: the workflow input, or the output of
// a phase the binding's owner depends on, then a path into that value (object keys and array
// indices, at most 32 steps). A path that does not exist at run time fails the run with
// INVALID_INPUT (rule "binding_path").
class CODEMODE_EXPORT WorkflowBinding {
 public:
  using Step = std::variant<std::string, std::size_t>;  // an object key or an array index

  // The whole workflow input.
  WorkflowBinding() = default;
  static WorkflowBinding workflow_input(std::vector<Step> path = {});
  static WorkflowBinding phase_output(std::string phase_id, std::vector<Step> path = {});

  // Empty for the workflow input.
  const std::string& phase_id() const { return phase_id_; }
  bool from_workflow_input() const { return phase_id_.empty(); }
  const std::vector<Step>& path() const { return path_; }

  // {"kind":"input","path":[...]} or {"kind":"phase","phaseId":"...","path":[...]}.
  Json to_json() const;
  // The inverse of to_json. INVALID_CONFIG (rule "workflow_binding") for anything else.
  static Result<WorkflowBinding> from_json(const Json& json);

  friend bool operator==(const WorkflowBinding&, const WorkflowBinding&) = default;

 private:
  WorkflowBinding(std::string phase_id, std::vector<Step> path)
      : phase_id_(std::move(phase_id)), path_(std::move(path)) {}

  std::string phase_id_;
  std::vector<Step> path_;
};

struct WorkflowPhaseOptions {
  // ^[A-Za-z][A-Za-z0-9._-]{0,127}$, and not "constructor", "prototype" or "__proto__".
  std::string id;
  CodeProgram program;  // at most 64 tool calls (the audit holds at most 64 receipts)
  WorkflowBinding input{};
  // Earlier phases that must succeed first. A phase bound to another phase's output depends on
  // it whether or not it is listed here.
  std::vector<std::string> depends_on{};
};

struct DurableWorkflowOptions {
  std::string id;       // ^[A-Za-z][A-Za-z0-9._/-]{0,127}$
  std::string version;  // nonempty after trimming, at most 128 characters
  Schema input;         // the run's input
  Schema output;        // the run's result
  // Whose audit records the phases write; part of each phase tool's capabilities. A runtime
  // runs the workflow only for this scope.
  Scope audit_scope;
  std::vector<WorkflowPhaseOptions> phases;  // 1..128, in an order where dependencies come first
  WorkflowBinding result{};
};

// The most phases one workflow may have, and the most tool calls one phase may make.
inline constexpr std::size_t kMaxWorkflowPhases = 128;
inline constexpr std::int64_t kMaxPhaseToolCalls = 64;

class CODEMODE_EXPORT DurableWorkflow {
 public:
  struct Phase {
    std::string id;
    CodeProgram program;
    Tool tool;  // the phase tool; calling it through a broker refuses (see phase_tool.h)
    WorkflowBinding input;
    std::vector<std::string> depends_on;  // listed and implied, in phase order
  };

  const std::string& id() const;
  const std::string& version() const;
  // 64 hex: SHA-256 of the definition manifest. Changes with any program (its source, limits,
  // schemas, imports, tools), binding, dependency, schema or the audit scope.
  const std::string& digest() const;
  // {format, id, version, inputSchema, outputSchema, auditScope, phases:[{id, tool, toolVersion,
  //  input, dependsOn}], result}
  const Json& manifest() const;
  const Schema& input_schema() const;
  const Schema& output_schema() const;
  const Scope& audit_scope() const;
  // sha256 of the scope's hash material; the code:audit-scope:<digest> capability.
  const std::string& audit_scope_digest() const;
  const std::vector<Phase>& phases() const;
  const Phase* find_phase(std::string_view phase_id) const;
  const WorkflowBinding& result() const;

 private:
  friend CODEMODE_EXPORT Result<DurableWorkflow> define_durable_workflow(
      DurableWorkflowOptions options);
  struct Definition;
  explicit DurableWorkflow(std::shared_ptr<const Definition> definition);
  std::shared_ptr<const Definition> definition_;
};

// Checks `options` and returns the workflow. Errors:
//   INVALID_CONFIG  rule "workflow_definition" naming the field (ids, version, phase count,
//                   unknown phase ids, a dependency on a later phase, bindings), or
//                   "audit_scope" ("A bounded audit scope is required.")
//   CONFLICT        rule "duplicate_phase" when two phases share an id
//   LIMIT_EXCEEDED  rule "phase_tool_calls" ("Durable phases support at most 64 auditable nested
//                   calls.") or "cost_overflow"
CODEMODE_EXPORT Result<DurableWorkflow> define_durable_workflow(DurableWorkflowOptions options);

// The digest a scope is known by in capabilities and audit records:
// sha256hex("codemode:scope:v1\n" + canonical_json({principalId, projectId})). INVALID_CONFIG
// (rule "audit_scope") unless each id is 1..256 characters.
CODEMODE_EXPORT Result<std::string> scope_digest(const Scope& scope);

}  // namespace codemode

#endif  // CODEMODE_WORKFLOW_H_
