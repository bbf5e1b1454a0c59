// WorkflowRuntime's public surface: starting runs, approvals, execution passes and inspection.
// The phase lifecycle itself is in phase_runner.cc.
#include "codemode/workflow_runtime.h"

#include <set>
#include <utility>

#include "core/random_hex.h"
#include "workflow/audit/audit_log.h"
#include "workflow/definition/hash_material.h"
#include "workflow/definition/phase_id.h"
#include "workflow/run/approval.h"
#include "workflow/run/approval_review.h"
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

// The verified person behind `credential`, if they may approve in `scope`.
Result<Person> verified_approver(const WorkflowRuntimeOptions& options,
                                 std::string_view credential) {
  Result<Person> person = Error::permission_denied("approver", "");
  try {
    person = options.verify_person(credential);
  } catch (...) {
    return approver_error();
  }
  if (!person.ok() || person->id.empty() || person->id.size() > 256 ||
      person->project_id != options.scope.project_id || !person->can_approve) {
    return approver_error();
  }
  return person;
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
  std::vector<std::string> ids;
  if (!run_id.empty()) {
    ids.emplace_back(run_id);
  } else {
    Result<std::vector<std::string>> listed = core.store().list_runs(core.scope_digest(), 1000);
    if (!listed.ok()) return std::move(listed).error();
    ids = std::move(*listed);
  }
  std::vector<ApprovalRequest> requests;
  for (const std::string& id : ids) {
    // A lapsed request is issued again, under this runtime's policy, with a new digest.
    Result<RunDocument> run = core.update(id, [&](RunDocument& document) -> Result<Change> {
      const DurableWorkflow* workflow = core.workflow(document.workflow_digest);
      bool reissued = false;
      for (PhaseRecord& phase : document.phases) {
        if (workflow == nullptr || phase.state != PhaseState::kAwaitingApproval ||
            phase.approval->expires_at_millis > core.now_millis()) {
          continue;
        }
        Status issued = internal::issue_approval(document, phase, *workflow->find_phase(phase.id),
                                                 core.approval_policy());
        if (!issued.ok()) return issued.error();
        reissued = true;
      }
      return reissued ? Change::kWrite : Change::kKeep;
    });
    if (!run.ok()) return std::move(run).error();
    Result<std::optional<std::string>> definition =
        core.store().get_definition(run->workflow_digest);
    if (!definition.ok()) return std::move(definition).error();
    Json document = definition->has_value()
                        ? Json::parse(**definition, nullptr, /*allow_exceptions=*/false)
                        : Json();
    for (const PhaseRecord& phase : run->phases) {
      if (phase.state != PhaseState::kAwaitingApproval) continue;
      Result<ApprovalRequest> request = internal::approval_request(*run, phase, document);
      if (!request.ok()) return std::move(request).error();
      requests.push_back(std::move(*request));
    }
  }
  return requests;
}

namespace {

enum class Decision { kApprove, kReject };

Error digest_conflict() {
  return Error::conflict("approval_digest",
                         "The approval digest is not the phase's open approval request.");
}

// Whether a phase already decided was decided this way with this digest (deciding again is
// harmless).
bool decided_alike(const PhaseRecord& phase, std::string_view digest, Decision decision) {
  if (phase.approval->digest != digest || !phase.approval->decided_by) return false;
  bool rejected = phase.state == PhaseState::kBlocked && phase.error &&
                  phase.error->rule == "approval_rejected";
  return (decision == Decision::kReject) == rejected;
}

Status decide(const internal::RuntimeCore& core, std::string_view run_id, std::string_view phase_id,
              std::string_view digest, std::string_view credential, Decision decision) {
  if (!internal::is_hex_digest(run_id)) {
    return Error::invalid_input("run_id", "Run identity is invalid.");
  }
  if (!internal::is_phase_id(phase_id)) {
    return Error::invalid_input("phase_id", "Phase identity is invalid.");
  }
  Result<Person> person = verified_approver(core.options(), credential);
  if (!person.ok()) return std::move(person).error();
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
    if (phase->approval->digest != digest || phase->approval->policy_hash != core.policy_hash()) {
      refusal = digest_conflict();
      return Change::kKeep;
    }
    const std::int64_t now = core.now_millis();
    if (phase->approval->expires_at_millis <= now) {
      refusal = Error::conflict("approval_expired",
                                "The approval request expired; a new one was issued.");
      const DurableWorkflow* workflow = core.workflow(run.workflow_digest);
      Status issued = internal::issue_approval(run, *phase, *workflow->find_phase(phase->id),
                                               core.approval_policy());
      if (!issued.ok()) return issued.error();
      return Change::kWrite;
    }
    phase->approval->decided_by = person->id;
    phase->approval->decided_at_millis = now;
    if (decision == Decision::kApprove) {
      phase->state = PhaseState::kApproved;
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
                                std::string_view digest, std::string_view credential) {
  return decide(*impl_->core, run_id, phase_id, digest, credential, Decision::kApprove);
}

Status WorkflowRuntime::reject(std::string_view run_id, std::string_view phase_id,
                               std::string_view digest, std::string_view credential) {
  return decide(*impl_->core, run_id, phase_id, digest, credential, Decision::kReject);
}

Result<RunView> WorkflowRuntime::advance(std::string_view run_id) {
  const internal::RuntimeCore& core = *impl_->core;
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
  if (Result<std::size_t> recovered = recover_expired(); !recovered.ok()) {
    return std::move(recovered).error();
  }
  Result<std::vector<std::string>> due =
      core.store().due_runs(core.scope_digest(), core.policy_hash(), core.now_millis(), max_runs);
  if (!due.ok()) return std::move(due).error();
  std::size_t executed = 0;
  for (const std::string& id : *due) {
    Result<internal::LoadedRun> loaded = core.load(id);
    if (!loaded.ok()) return std::move(loaded).error();
    for (const PhaseRecord& phase : loaded->run.phases) {
      if (phase.state != PhaseState::kApproved) continue;
      Result<bool> ran = internal::run_phase(core, id, phase.id);
      // A run of a definition this runtime was not given is left to a runtime that has it.
      if (!ran.ok() && ran.error().rule == "unknown_workflow") break;
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
  return internal::read_phase_audit(impl_->core->store(), impl_->core->scope_digest(), run_id,
                                    phase_id);
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
