// WorkflowRuntime's public surface: starting runs, approvals, execution passes and inspection.
// The phase lifecycle itself is in phase_runner.cc.
#include "codemode/workflow_runtime.h"

#include <set>
#include <utility>

#include "codemode/rules.h"

#include "core/crypto/random_hex.h"
#include "workflow/audit/audit_log.h"
#include "workflow/definition/hash_material.h"
#include "workflow/definition/phase_binding.h"
#include "workflow/definition/phase_id.h"
#include "workflow/run/approval.h"
#include "workflow/run/approval_review.h"
#include "workflow/run/audit_consistency.h"
#include "workflow/run/phase_runner.h"
#include "workflow/run/runtime_core.h"

namespace codemode {

struct WorkflowRuntime::Impl {
  std::unique_ptr<internal::RuntimeCore> core;
};

namespace {

using internal::Change;
using internal::PhaseRecord;
using internal::RunDocument;

Error approver_error() {
  return Error::permission_denied("approver", "The approver could not be verified.");
}

// The verified person behind `credential`, if they may approve in `scope` and are one of the
// runtime's approvers.
Result<Person> verified_approver(const internal::RuntimeCore& core, std::string_view credential) {
  const WorkflowRuntimeOptions& options = core.options();
  Result<Person> person = Error::permission_denied("approver", "");
  try {
    person = options.verify_person(credential);
  } catch (...) {
    return approver_error();
  }
  if (!person.ok() || person->id.empty() || person->id.size() > 256 ||
      person->project_id != options.scope.project_id || !person->can_approve ||
      !core.is_approver(person->id)) {
    return approver_error();
  }
  return person;
}

// Whether this runtime can no longer honour the phase's open request or its approval: the request
// lapsed, or either was made under another policy or another phase binding (its tools changed).
// Such a request is issued again under this runtime's policy and the binding as it is now. Reads
// the bound files; writes nothing.
Result<bool> needs_reissue(const internal::RuntimeCore& core, const PhaseRecord& phase,
                           const DurableWorkflow::Phase& definition) {
  if (!phase.approval ||
      (phase.state != PhaseState::kAwaitingApproval && phase.state != PhaseState::kApproved)) {
    return false;
  }
  if (phase.approval->policy_hash != core.policy_hash()) return true;
  if (phase.state == PhaseState::kAwaitingApproval &&
      phase.approval->expires_at_millis <= core.now_millis()) {
    return true;
  }
  Result<internal::PhaseBinding> binding = internal::phase_binding(definition);
  if (!binding.ok()) return std::move(binding).error();
  return phase.approval->binding_digest != binding->digest;
}

// The phase binding a request's digest binds, to show the person: computed now from this
// runtime's tools when it has the workflow and they still match, else the material stored under
// the digest (null when there is none).
Result<Json> reviewed_binding(const internal::RuntimeCore& core, const DurableWorkflow* own,
                              const PhaseRecord& phase) {
  if (own != nullptr) {
    if (const DurableWorkflow::Phase* definition = own->find_phase(phase.id)) {
      Result<internal::PhaseBinding> fresh = internal::phase_binding(*definition);
      if (!fresh.ok()) return std::move(fresh).error();
      if (fresh->digest == phase.approval->binding_digest) return std::move(fresh->material);
    }
  }
  if (phase.approval->binding_digest.empty()) return Json();
  Result<std::optional<std::string>> stored =
      core.store().get_definition(phase.approval->binding_digest);
  if (!stored.ok()) return std::move(stored).error();
  return stored->has_value() ? Json::parse(**stored, nullptr, false) : Json();
}

// The run `run_id` names, or every run of this scope (at most 1,000) when it is empty.
Result<std::vector<std::string>> runs_named(const internal::RuntimeCore& core,
                                            std::string_view run_id) {
  if (!run_id.empty()) return std::vector<std::string>{std::string(run_id)};
  return core.store().list_runs(core.scope_digest(), 1000);
}

}  // namespace

WorkflowRuntime::WorkflowRuntime(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
WorkflowRuntime::~WorkflowRuntime() = default;

Result<std::unique_ptr<WorkflowRuntime>> WorkflowRuntime::create(WorkflowRuntimeOptions options) {
  Result<std::unique_ptr<internal::RuntimeCore>> core =
      internal::RuntimeCore::create(std::move(options));
  if (!core.ok()) return std::move(core).error();
  for (const DurableWorkflow& workflow : (*core)->options().workflows) {
    if (Status stored = (*core)->store().put_definition(
            workflow.digest(), internal::definition_document(workflow).dump());
        !stored.ok()) {
      return std::move(stored).error();
    }
  }
  auto impl = std::make_unique<Impl>();
  impl->core = std::move(*core);
  return std::unique_ptr<WorkflowRuntime>(new WorkflowRuntime(std::move(impl)));
}

const std::string& WorkflowRuntime::policy_hash() const { return impl_->core->policy_hash(); }

Result<std::string> WorkflowRuntime::start(const DurableWorkflow& workflow, const Json& input) {
  const internal::RuntimeCore& core = *impl_->core;
  if (core.workflow(workflow.digest()) == nullptr) {
    return Error::not_found("unknown_workflow", "This runtime was not given the workflow.");
  }
  if (workflow.audit_scope_digest() != core.scope_digest()) {
    return Error::permission_denied("audit_scope",
                                    "The workflow's audit scope is not the runtime's scope.");
  }
  if (!check_json(input, JsonLimits{.max_bytes = 16u << 20}).ok() ||
      !workflow.input_schema().validate(input).ok()) {
    return Error::invalid_input("workflow_input",
                                "The workflow input does not match its input schema.");
  }
  RunDocument run{.run_id = internal::random_hex(32),
                  .scope = core.options().scope,
                  .scope_digest = core.scope_digest(),
                  .workflow_id = workflow.id(),
                  .workflow_version = workflow.version(),
                  .workflow_digest = workflow.digest(),
                  .input = input,
                  .status = RunStatus::kWaiting,
                  .output = std::nullopt,
                  .error = std::nullopt,
                  .ledger = {.max_cost_micros = core.options().max_cost_micros},
                  .phases = {},
                  .created_at_millis = core.now_millis(),
                  .updated_at_millis = core.now_millis()};
  if (run.run_id.empty()) {
    return Error::storage_unavailable("random", "No random identity could be drawn.");
  }
  for (const DurableWorkflow::Phase& phase : workflow.phases()) {
    run.phases.push_back(PhaseRecord{.id = phase.id});
  }
  if (Status opened = internal::open_ready_phases(run, workflow, core.approval_policy());
      !opened.ok()) {
    return std::move(opened).error();
  }
  Result<StoredRun> stored = internal::to_stored_run(run, 1);
  if (!stored.ok()) return std::move(stored).error();
  if (Status inserted = core.store().insert_run(*stored); !inserted.ok()) {
    return std::move(inserted).error();
  }
  return run.run_id;
}

Result<RunView> WorkflowRuntime::status(std::string_view run_id) {
  Result<internal::LoadedRun> loaded = impl_->core->load(run_id);
  if (!loaded.ok()) return std::move(loaded).error();
  return internal::view_of(loaded->run);
}

Result<std::vector<RunView>> WorkflowRuntime::list(std::size_t limit) {
  Result<std::vector<std::string>> ids =
      impl_->core->store().list_runs(impl_->core->scope_digest(), limit);
  if (!ids.ok()) return std::move(ids).error();
  std::vector<RunView> views;
  for (const std::string& id : *ids) {
    Result<RunView> view = status(id);
    if (!view.ok()) return std::move(view).error();
    views.push_back(std::move(*view));
  }
  return views;
}

Result<std::vector<ApprovalRequest>> WorkflowRuntime::pending(std::string_view run_id) {
  const internal::RuntimeCore& core = *impl_->core;
  Result<std::vector<std::string>> ids = runs_named(core, run_id);
  if (!ids.ok()) return std::move(ids).error();
  std::vector<ApprovalRequest> requests;
  for (const std::string& id : *ids) {
    Result<internal::LoadedRun> loaded = core.load(id);
    if (!loaded.ok()) return std::move(loaded).error();
    const RunDocument& run = loaded->run;
    // What a person reviews comes from this runtime's own definition and tools when it has them,
    // so a store edited by hand cannot show one program or command while the digest binds another;
    // the stored documents serve runs of workflows it was not given.
    const DurableWorkflow* own = core.workflow(run.workflow_digest);
    Json document;
    if (own != nullptr) {
      document = internal::definition_document(*own);
    } else {
      Result<std::optional<std::string>> stored = core.store().get_definition(run.workflow_digest);
      if (!stored.ok()) return std::move(stored).error();
      if (stored->has_value()) document = Json::parse(**stored, nullptr, false);
    }
    for (const PhaseRecord& phase : run.phases) {
      if (phase.state != PhaseState::kAwaitingApproval) continue;
      // A request this runtime would refuse (lapsed, another policy, tools changed) is not asked
      // of anyone: reissue issues it again.
      if (own != nullptr) {
        Result<bool> stale = needs_reissue(core, phase, *own->find_phase(phase.id));
        if (!stale.ok()) return std::move(stale).error();
        if (*stale) continue;
      }
      Result<Json> binding = reviewed_binding(core, own, phase);
      if (!binding.ok()) return std::move(binding).error();
      Result<ApprovalRequest> request = internal::approval_request(run, phase, document, *binding);
      if (!request.ok()) return std::move(request).error();
      requests.push_back(std::move(*request));
    }
  }
  return requests;
}

Result<std::size_t> WorkflowRuntime::reissue(std::string_view run_id) {
  const internal::RuntimeCore& core = *impl_->core;
  Result<std::vector<std::string>> ids = runs_named(core, run_id);
  if (!ids.ok()) return std::move(ids).error();
  std::size_t total = 0;
  for (const std::string& id : *ids) {
    std::size_t issued = 0;
    Result<RunDocument> run = core.update(id, [&](RunDocument& document) -> Result<Change> {
      issued = 0;
      const DurableWorkflow* workflow = core.workflow(document.workflow_digest);
      if (workflow == nullptr) return Change::kKeep;  // another host's workflow and approvers
      for (PhaseRecord& phase : document.phases) {
        const DurableWorkflow::Phase& definition = *workflow->find_phase(phase.id);
        Result<bool> stale = needs_reissue(core, phase, definition);
        if (!stale.ok()) return std::move(stale).error();
        if (!*stale) continue;
        if (Status reissued =
                internal::issue_approval(document, phase, definition, core.approval_policy());
            !reissued.ok()) {
          return reissued.error();
        }
        internal::refresh_status(document);
        ++issued;
      }
      return issued > 0 ? Change::kWrite : Change::kKeep;
    });
    if (!run.ok()) return std::move(run).error();
    total += issued;
  }
  return total;
}

namespace {

Error audit_mismatch() {
  return Error::storage_unavailable("phase_audit_mismatch",
                                    "Code phase audit does not match its run.");
}

// What the phase's program allows, from this runtime's definition of the run's workflow, or else
// from the definition stored with it.
Result<internal::AuditedProgram> audited_program(const internal::RuntimeCore& core,
                                                 const RunDocument& run,
                                                 std::string_view phase_id) {
  internal::AuditedProgram audited;
  if (const DurableWorkflow* workflow = core.workflow(run.workflow_digest)) {
    const DurableWorkflow::Phase* phase = workflow->find_phase(phase_id);
    if (phase == nullptr) return audit_mismatch();
    audited.program_digest = phase->program.digest();
    for (const Tool& tool : phase->program.tools()) audited.tool_ids.insert(tool.id());
    audited.max_tool_calls = phase->program.limits().max_tool_calls;
    audited.phase_cost_micros = phase->tool.cost_micros();
    return audited;
  }
  const Error invalid = Error::storage_unavailable(
      "workflow_definition", "A stored workflow definition does not describe the run.");
  Result<std::optional<std::string>> stored = core.store().get_definition(run.workflow_digest);
  if (!stored.ok()) return std::move(stored).error();
  if (!stored->has_value()) return invalid;
  const Json document = Json::parse(**stored, nullptr, /*allow_exceptions=*/false);
  try {
    for (const Json& phase : document.at("phases")) {
      if (phase.at("id") != phase_id) continue;
      const Json& program = phase.at("program");
      audited.program_digest = program.at("digest").get<std::string>();
      for (const Json& tool : program.at("tools")) {
        audited.tool_ids.insert(tool.at("id").get<std::string>());
      }
      audited.max_tool_calls = program.at("limits").at("maxToolCalls").get<std::int64_t>();
      audited.phase_cost_micros = phase.at("tool").at("costMicros").get<std::int64_t>();
      return audited;
    }
  } catch (const Json::exception&) {
  }
  return invalid;
}

Error digest_conflict() {
  return Error::conflict("approval_digest",
                         "The approval digest is not the phase's open approval request.");
}

// Whether a phase already decided was decided this way with this digest (deciding again is
// harmless).
bool decided_alike(const PhaseRecord& phase, std::string_view digest, Decision decision) {
  if (phase.approval->digest != digest || !phase.approval->decided_by) return false;
  bool rejected = phase.state == PhaseState::kBlocked && phase.error &&
                  phase.error->rule == rules::kApprovalRejected;
  return (decision == Decision::kReject) == rejected;
}

Status decide(const internal::RuntimeCore& core, std::string_view run_id, std::string_view phase_id,
              std::string_view digest, std::string_view credential, std::string_view signature,
              Decision decision) {
  if (!internal::is_hex_digest(run_id)) {
    return Error::invalid_input("run_id", "Run identity is invalid.");
  }
  if (!internal::is_phase_id(phase_id)) {
    return Error::invalid_input("phase_id", "Phase identity is invalid.");
  }
  Result<Person> person = verified_approver(core, credential);
  if (!person.ok()) return std::move(person).error();
  const internal::ApproverKeys& keys = core.approver_keys();
  if (keys.required() &&
      !keys.verifies(person->id, run_id, phase_id, digest, decision, signature)) {
    return Error::permission_denied("approval_signature",
                                    "The decision is not signed with the approver's key.");
  }
  std::optional<Error> refusal;
  Result<RunDocument> updated = core.update(run_id, [&](RunDocument& run) -> Result<Change> {
    refusal.reset();
    // A person this runtime verifies approves only the workflows it was given: another
    // workflow's runs in the same scope have their own approvers.
    if (core.workflow(run.workflow_digest) == nullptr) {
      return Error::not_found("unknown_workflow", "This runtime was not given the run's workflow.");
    }
    PhaseRecord* phase = run.find_phase(phase_id);
    if (phase == nullptr) return Error::not_found("phase", "No such phase in the run.");
    if (!phase->approval) {
      refusal = digest_conflict();
      return Change::kKeep;
    }
    if (phase->state != PhaseState::kAwaitingApproval) {
      if (!decided_alike(*phase, digest, decision)) refusal = digest_conflict();
      return Change::kKeep;
    }
    if (phase->approval->digest != digest) {
      refusal = digest_conflict();
      return Change::kKeep;
    }
    const DurableWorkflow::Phase& definition =
        *core.workflow(run.workflow_digest)->find_phase(phase->id);
    Result<bool> stale = needs_reissue(core, *phase, definition);
    if (!stale.ok()) return std::move(stale).error();
    if (*stale) {
      refusal = phase->approval->expires_at_millis <= core.now_millis()
                    ? Error::conflict("approval_expired",
                                      "The approval request expired; a new one was issued.")
                    : Error::conflict("approval_stale",
                                      "The runtime's policy or the phase's tools changed since "
                                      "the request was issued; a new one was issued.");
      Status issued = internal::issue_approval(run, *phase, definition, core.approval_policy());
      if (!issued.ok()) return issued.error();
      return Change::kWrite;
    }
    const std::int64_t now = core.now_millis();
    phase->approval->decided_by = person->id;
    phase->approval->decided_at_millis = now;
    if (keys.required()) phase->approval->signature = std::string(signature);
    if (decision == Decision::kApprove) {
      phase->state = PhaseState::kApproved;
      phase->error.reset();  // an earlier approval_stale notice
      internal::refresh_status(run);
    } else {
      phase->receipt = ExecutionReceipt{.call_id = internal::phase_call_id(run, *phase),
                                        .tool_id = phase->approval->tool_id,
                                        .execution = ExecutionState::kNotStarted,
                                        .disclosure = Disclosure::kWithheld};
      internal::end_phase(
          run, *phase, PhaseState::kBlocked,
          Error::permission_denied("approval_rejected", "A person rejected the phase."));
    }
    return Change::kWrite;
  });
  if (!updated.ok()) return std::move(updated).error();
  if (refusal) return std::move(*refusal);
  return {};
}

}  // namespace

Status WorkflowRuntime::approve(std::string_view run_id, std::string_view phase_id,
                                std::string_view digest, std::string_view credential,
                                std::string_view signature) {
  return decide(*impl_->core, run_id, phase_id, digest, credential, signature, Decision::kApprove);
}

Status WorkflowRuntime::reject(std::string_view run_id, std::string_view phase_id,
                               std::string_view digest, std::string_view credential,
                               std::string_view signature) {
  return decide(*impl_->core, run_id, phase_id, digest, credential, signature, Decision::kReject);
}

Result<RunView> WorkflowRuntime::advance(std::string_view run_id) {
  const internal::RuntimeCore& core = *impl_->core;
  if (Result<std::size_t> settled = internal::settle_unsettled(core); !settled.ok()) {
    return std::move(settled).error();
  }
  std::set<std::string, std::less<>> tried;
  for (;;) {
    Result<internal::LoadedRun> loaded = core.load(run_id);
    if (!loaded.ok()) return std::move(loaded).error();
    const PhaseRecord* next = nullptr;
    for (const PhaseRecord& phase : loaded->run.phases) {
      if (phase.state == PhaseState::kApproved && !tried.contains(phase.id)) {
        next = &phase;
        break;
      }
    }
    if (next == nullptr) return internal::view_of(loaded->run);
    tried.insert(next->id);
    Result<bool> ran = internal::run_phase(core, run_id, next->id);
    if (!ran.ok()) return std::move(ran).error();
  }
}

Result<std::size_t> WorkflowRuntime::recover_expired() {
  const internal::RuntimeCore& core = *impl_->core;
  Result<std::vector<std::string>> due =
      core.store().due_runs(core.scope_digest(), core.policy_hash(), core.now_millis(), 1000);
  if (!due.ok()) return std::move(due).error();
  std::size_t recovered = 0;
  for (const std::string& id : *due) {
    Result<std::size_t> count = internal::recover_run(core, id);
    if (!count.ok()) return std::move(count).error();
    recovered += *count;
  }
  return recovered;
}

Result<std::size_t> WorkflowRuntime::run_due(std::size_t max_runs) {
  const internal::RuntimeCore& core = *impl_->core;
  // First what this runtime knows and the store does not: a phase it ran is settled by it, not
  // recovered as unknown. It counts as executed in this pass, the one that commits it.
  Result<std::size_t> settled = internal::settle_unsettled(core);
  if (!settled.ok()) return std::move(settled).error();
  if (Result<std::size_t> recovered = recover_expired(); !recovered.ok()) {
    return std::move(recovered).error();
  }
  Result<std::vector<std::string>> due =
      core.store().due_runs(core.scope_digest(), core.policy_hash(), core.now_millis(), max_runs);
  if (!due.ok()) return std::move(due).error();
  std::size_t executed = *settled;
  for (const std::string& id : *due) {
    Result<internal::LoadedRun> loaded = core.load(id);
    if (!loaded.ok()) return std::move(loaded).error();
    for (const PhaseRecord& phase : loaded->run.phases) {
      if (phase.state != PhaseState::kApproved) continue;
      Result<bool> ran = internal::run_phase(core, id, phase.id);
      // A run of a definition this runtime was not given is left to a runtime that has it.
      if (!ran.ok() && ran.error().rule == rules::kUnknownWorkflow) break;
      if (!ran.ok()) return std::move(ran).error();
      executed += *ran ? 1 : 0;
    }
  }
  return executed;
}

Result<std::optional<PhaseAudit>> WorkflowRuntime::inspect(std::string_view run_id,
                                                           std::string_view phase_id) {
  if (!internal::is_hex_digest(run_id)) {
    return Error::invalid_input("run_id", "Run identity is invalid.");
  }
  if (!internal::is_phase_id(phase_id)) {
    return Error::invalid_input("phase_id", "Phase identity is invalid.");
  }
  const internal::RuntimeCore& core = *impl_->core;
  Result<std::optional<PhaseAudit>> audit =
      internal::read_phase_audit(core.store(), core.scope_digest(), run_id, phase_id);
  if (!audit.ok()) return audit;
  Result<internal::LoadedRun> loaded = core.load(run_id);
  if (!loaded.ok() && loaded.error().code == ErrorCode::kNotFound) {
    // No run of this scope: nothing can vouch for a record under its id.
    if (audit->has_value()) return audit_mismatch();
    return audit;
  }
  if (!loaded.ok()) return std::move(loaded).error();
  const PhaseRecord* phase = loaded->run.find_phase(phase_id);
  if (phase == nullptr) {
    if (audit->has_value()) return audit_mismatch();
    return audit;
  }
  Result<internal::AuditedProgram> program = audited_program(core, loaded->run, phase_id);
  if (!program.ok()) return std::move(program).error();
  if (Status matches = internal::check_audit_matches_run(*audit, loaded->run, *phase, *program);
      !matches.ok()) {
    return std::move(matches).error();
  }
  return audit;
}

Json to_json(const RunView& view) {
  Json phases = Json::array();
  for (const PhaseView& phase : view.phases) {
    Json entry{{"phaseId", phase.phase_id}, {"state", to_string(phase.state)}};
    if (phase.receipt) {
      entry["receipt"] = {{"callId", phase.receipt->call_id},
                          {"toolId", phase.receipt->tool_id},
                          {"execution", to_string(phase.receipt->execution)},
                          {"disclosure", to_string(phase.receipt->disclosure)}};
    }
    if (phase.decided_by) entry["decidedBy"] = *phase.decided_by;
    if (phase.decided_at_millis) entry["decidedAt"] = *phase.decided_at_millis;
    if (phase.error) {
      entry["error"] = {{"code", to_string(phase.error->code)},
                        {"rule", phase.error->rule},
                        {"message", phase.error->message}};
    }
    phases.push_back(std::move(entry));
  }
  Json json{{"runId", view.run_id},
            {"workflow",
             {{"id", view.workflow_id},
              {"version", view.workflow_version},
              {"digest", view.workflow_digest}}},
            {"status", to_string(view.status)}};
  if (view.output) json["output"] = *view.output;
  if (view.error) {
    json["error"] = {{"code", to_string(view.error->code)},
                     {"rule", view.error->rule},
                     {"message", view.error->message}};
  }
  json["ledger"] = {{"spentMicros", view.ledger.spent_micros},
                    {"reservedMicros", view.ledger.reserved_micros},
                    {"maxCostMicros", view.ledger.max_cost_micros}};
  json["phases"] = std::move(phases);
  json["createdAt"] = view.created_at_millis;
  json["updatedAt"] = view.updated_at_millis;
  return json;
}

}  // namespace codemode
