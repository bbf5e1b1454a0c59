// RunDocument's JSON form. Reading is strict: a document with a field this codemode did not write
// is refused, never half-read.
#include "workflow/run/run_document.h"

#include <algorithm>
#include <utility>

#include "core/json/json_keys.h"
#include "workflow/definition/hash_material.h"
#include "workflow/run/run_status.h"

namespace codemode::internal {
namespace {

// Thrown only inside this file, by the readers below, and caught by run_document_from_json.
struct MalformedDocument {};

const Json& member(const Json& object, const char* key) {
  auto found = object.find(key);
  if (found == object.end()) throw MalformedDocument{};
  return *found;
}

const Json& object_at(const Json& object, const char* key) {
  const Json& value = member(object, key);
  if (!value.is_object()) throw MalformedDocument{};
  return value;
}

std::string string_at(const Json& object, const char* key) {
  const Json& value = member(object, key);
  if (!value.is_string()) throw MalformedDocument{};
  return value.get<std::string>();
}

std::int64_t int_at(const Json& object, const char* key) {
  const Json& value = member(object, key);
  if (!value.is_number_integer()) throw MalformedDocument{};
  std::int64_t number = value.get<std::int64_t>();
  if (number < 0 || number > kMaxSafeInteger) throw MalformedDocument{};
  return number;
}

void expect_keys(const Json& object, std::initializer_list<std::string_view> keys) {
  if (!object.is_object() || !only_keys(object, keys)) throw MalformedDocument{};
}

Json error_json(const Error& error) {
  return Json{{"code", to_string(error.code)}, {"rule", error.rule}, {"message", error.message}};
}

Error error_from(const Json& json) {
  expect_keys(json, {"code", "rule", "message"});
  auto code = error_code_from_string(string_at(json, "code"));
  if (!code) throw MalformedDocument{};
  return Error::with_code(*code, string_at(json, "rule"), string_at(json, "message"));
}

Json receipt_json(const ExecutionReceipt& receipt) {
  return Json{{"callId", receipt.call_id},
              {"toolId", receipt.tool_id},
              {"execution", to_string(receipt.execution)},
              {"disclosure", to_string(receipt.disclosure)}};
}

ExecutionReceipt receipt_from(const Json& json) {
  expect_keys(json, {"callId", "toolId", "execution", "disclosure"});
  auto execution = execution_state_from_string(string_at(json, "execution"));
  auto disclosure = disclosure_from_string(string_at(json, "disclosure"));
  if (!execution || !disclosure) throw MalformedDocument{};
  return ExecutionReceipt{.call_id = string_at(json, "callId"),
                          .tool_id = string_at(json, "toolId"),
                          .execution = *execution,
                          .disclosure = *disclosure};
}

Json approval_json(const PhaseApproval& approval) {
  Json json{{"toolId", approval.tool_id},
            {"digest", approval.digest},
            {"expiresAt", approval.expires_at_millis},
            {"policy", approval.policy_hash},
            {"binding", approval.binding_digest}};
  if (approval.decided_by) json["decidedBy"] = *approval.decided_by;
  if (approval.decided_at_millis) json["decidedAt"] = *approval.decided_at_millis;
  if (approval.signature) json["signature"] = *approval.signature;
  return json;
}

PhaseApproval approval_from(const Json& json) {
  expect_keys(json, {"toolId", "digest", "expiresAt", "policy", "binding", "decidedBy", "decidedAt",
                     "signature"});
  PhaseApproval approval{
      .tool_id = string_at(json, "toolId"),
      .digest = string_at(json, "digest"),
      .expires_at_millis = int_at(json, "expiresAt"),
      .policy_hash = string_at(json, "policy"),
      // Absent in runs stored before approvals bound it: never current, so
      // such a request is issued again and such an approval does not run.
      .binding_digest = json.contains("binding") ? string_at(json, "binding") : std::string(),
      .decided_by = std::nullopt,
      .decided_at_millis = std::nullopt,
      .signature = std::nullopt};
  if (json.contains("decidedBy")) approval.decided_by = string_at(json, "decidedBy");
  if (json.contains("decidedAt")) approval.decided_at_millis = int_at(json, "decidedAt");
  if (json.contains("signature")) approval.signature = string_at(json, "signature");
  if (!is_hex_digest(approval.digest) || !is_hex_digest(approval.policy_hash) ||
      (!approval.binding_digest.empty() && !is_hex_digest(approval.binding_digest)) ||
      approval.decided_by.has_value() != approval.decided_at_millis.has_value()) {
    throw MalformedDocument{};
  }
  return approval;
}

Json phase_json(const PhaseRecord& phase) {
  Json json{{"id", phase.id},
            {"state", to_string(phase.state)},
            {"reservedMicros", phase.reserved_micros}};
  if (phase.input) json["input"] = *phase.input;
  if (phase.approval) json["approval"] = approval_json(*phase.approval);
  if (phase.lease) {
    json["lease"] = {{"owner", phase.lease->owner},
                     {"expiresAt", phase.lease->expires_at_millis},
                     {"effects", to_string(phase.lease->effects)}};
  }
  if (phase.receipt) json["receipt"] = receipt_json(*phase.receipt);
  if (phase.output) json["output"] = *phase.output;
  if (phase.error) json["error"] = error_json(*phase.error);
  return json;
}

PhaseRecord phase_from(const Json& json) {
  expect_keys(json, {"id", "state", "reservedMicros", "input", "approval", "lease", "receipt",
                     "output", "error"});
  auto state = phase_state_from_string(string_at(json, "state"));
  if (!state) throw MalformedDocument{};
  PhaseRecord phase{.id = string_at(json, "id"),
                    .state = *state,
                    .reserved_micros = int_at(json, "reservedMicros")};
  if (json.contains("input")) phase.input = json.at("input");
  if (json.contains("approval")) phase.approval = approval_from(object_at(json, "approval"));
  if (json.contains("lease")) {
    const Json& lease = object_at(json, "lease");
    expect_keys(lease, {"owner", "expiresAt", "effects"});
    auto effects = tool_effects_from_string(string_at(lease, "effects"));
    if (!effects) throw MalformedDocument{};
    phase.lease = PhaseLease{.owner = string_at(lease, "owner"),
                             .expires_at_millis = int_at(lease, "expiresAt"),
                             .effects = *effects};
  }
  if (json.contains("receipt")) phase.receipt = receipt_from(object_at(json, "receipt"));
  if (json.contains("output")) phase.output = json.at("output");
  if (json.contains("error")) phase.error = error_from(object_at(json, "error"));
  return phase;
}

RunLedger ledger_from(const Json& json) {
  expect_keys(json, {"spentMicros", "reservedMicros", "maxCostMicros"});
  RunLedger ledger{.spent_micros = int_at(json, "spentMicros"),
                   .reserved_micros = int_at(json, "reservedMicros"),
                   .max_cost_micros = int_at(json, "maxCostMicros")};
  if (ledger.spent_micros >
      ledger.max_cost_micros - std::min(ledger.reserved_micros, ledger.max_cost_micros)) {
    throw MalformedDocument{};
  }
  return ledger;
}

RunDocument document_from(const Json& json) {
  expect_keys(json, {"format", "runId", "scope", "scopeDigest", "workflow", "input", "status",
                     "output", "error", "ledger", "phases", "createdAt", "updatedAt"});
  if (int_at(json, "format") != 1) throw MalformedDocument{};
  const Json& scope = object_at(json, "scope");
  expect_keys(scope, {"principalId", "projectId"});
  const Json& workflow = object_at(json, "workflow");
  expect_keys(workflow, {"id", "version", "digest"});
  auto status = run_status_from_string(string_at(json, "status"));
  if (!status) throw MalformedDocument{};
  RunDocument run{.run_id = string_at(json, "runId"),
                  .scope = {.principal_id = string_at(scope, "principalId"),
                            .project_id = string_at(scope, "projectId")},
                  .scope_digest = string_at(json, "scopeDigest"),
                  .workflow_id = string_at(workflow, "id"),
                  .workflow_version = string_at(workflow, "version"),
                  .workflow_digest = string_at(workflow, "digest"),
                  .input = member(json, "input"),
                  .status = *status,
                  .output = std::nullopt,
                  .error = std::nullopt,
                  .ledger = ledger_from(object_at(json, "ledger")),
                  .phases = {},
                  .created_at_millis = int_at(json, "createdAt"),
                  .updated_at_millis = int_at(json, "updatedAt")};
  if (json.contains("output")) run.output = json.at("output");
  if (json.contains("error")) run.error = error_from(object_at(json, "error"));
  const Json& phases = member(json, "phases");
  if (!phases.is_array() || phases.empty()) throw MalformedDocument{};
  for (const Json& phase : phases) run.phases.push_back(phase_from(phase));
  if (!is_hex_digest(run.run_id) || !is_hex_digest(run.scope_digest) ||
      !is_hex_digest(run.workflow_digest) ||
      run.output.has_value() != (run.status == RunStatus::kSucceeded)) {
    throw MalformedDocument{};
  }
  return run;
}

}  // namespace

PhaseRecord* RunDocument::find_phase(std::string_view phase_id) {
  for (PhaseRecord& phase : phases) {
    if (phase.id == phase_id) return &phase;
  }
  return nullptr;
}

const PhaseRecord* RunDocument::find_phase(std::string_view phase_id) const {
  for (const PhaseRecord& phase : phases) {
    if (phase.id == phase_id) return &phase;
  }
  return nullptr;
}

bool RunDocument::over() const {
  return status != RunStatus::kWaiting && status != RunStatus::kRunning;
}

Json to_json(const RunDocument& run) {
  Json phases = Json::array();
  for (const PhaseRecord& phase : run.phases) phases.push_back(phase_json(phase));
  Json json{
      {"format", 1},
      {"runId", run.run_id},
      {"scope", {{"principalId", run.scope.principal_id}, {"projectId", run.scope.project_id}}},
      {"scopeDigest", run.scope_digest},
      {"workflow",
       {{"id", run.workflow_id},
        {"version", run.workflow_version},
        {"digest", run.workflow_digest}}},
      {"input", run.input},
      {"status", to_string(run.status)},
      {"ledger",
       {{"spentMicros", run.ledger.spent_micros},
        {"reservedMicros", run.ledger.reserved_micros},
        {"maxCostMicros", run.ledger.max_cost_micros}}},
      {"phases", std::move(phases)},
      {"createdAt", run.created_at_millis},
      {"updatedAt", run.updated_at_millis}};
  if (run.output) json["output"] = *run.output;
  if (run.error) json["error"] = error_json(*run.error);
  return json;
}

Result<RunDocument> run_document_from_json(const Json& json) {
  try {
    return document_from(json);
  } catch (const MalformedDocument&) {
  } catch (const Json::exception&) {
  }
  return Error::storage_unavailable("run_document", "A stored workflow run is invalid.");
}

Result<StoredRun> to_stored_run(const RunDocument& run, std::int64_t version) {
  // Not serialize_json: phase inputs and outputs sit three levels down, so a document can be
  // deeper than the JSON boundary's 32 levels. Every value in it passed that boundary already.
  std::string text;
  try {
    text = to_json(run).dump();
  } catch (const Json::exception&) {
    return Error::storage_unavailable("run_document", "A workflow run could not be written.");
  }
  RunWake wake = wake_of(run);
  return StoredRun{.run_id = run.run_id,
                   .scope_digest = run.scope_digest,
                   .workflow_digest = run.workflow_digest,
                   .status = std::string(to_string(run.status)),
                   .wake_at_millis = wake.at_millis,
                   .wake_policy = std::move(wake.policy_hash),
                   .version = version,
                   .document = std::move(text)};
}

Result<RunDocument> run_document_of(const StoredRun& stored) {
  Json json = Json::parse(stored.document, nullptr, /*allow_exceptions=*/false);
  if (json.is_discarded()) {
    return Error::storage_unavailable("run_document", "A stored workflow run is invalid.");
  }
  Result<RunDocument> run = run_document_from_json(json);
  if (run.ok() && (run->run_id != stored.run_id || run->scope_digest != stored.scope_digest)) {
    return Error::storage_unavailable("run_document", "A stored workflow run is invalid.");
  }
  return run;
}

RunWake wake_of(const RunDocument& run) {
  RunWake wake;
  if (run.over()) return wake;
  for (const PhaseRecord& phase : run.phases) {
    RunWake candidate;
    if (phase.state == PhaseState::kApproved && phase.approval) {
      candidate = {.at_millis = 0, .policy_hash = phase.approval->policy_hash};
    } else if (phase.state == PhaseState::kRunning && phase.lease) {
      candidate = {.at_millis = phase.lease->expires_at_millis, .policy_hash = std::nullopt};
    } else {
      continue;
    }
    if (!wake.at_millis || *candidate.at_millis < *wake.at_millis) wake = candidate;
  }
  return wake;
}

RunView view_of(const RunDocument& run) {
  RunView view{.run_id = run.run_id,
               .workflow_id = run.workflow_id,
               .workflow_version = run.workflow_version,
               .workflow_digest = run.workflow_digest,
               .status = run.status,
               .output = run.output,
               .error = run.error,
               .ledger = run.ledger,
               .phases = {},
               .created_at_millis = run.created_at_millis,
               .updated_at_millis = run.updated_at_millis};
  for (const PhaseRecord& phase : run.phases) {
    view.phases.push_back(PhaseView{
        .phase_id = phase.id,
        .state = phase.state,
        .receipt = phase.receipt,
        .decided_by = phase.approval ? phase.approval->decided_by : std::nullopt,
        .decided_at_millis = phase.approval ? phase.approval->decided_at_millis : std::nullopt,
        .error = phase.error});
  }
  return view;
}

}  // namespace codemode::internal
