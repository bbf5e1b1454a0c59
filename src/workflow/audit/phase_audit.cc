// PhaseAudit's stored form (format 2) and every invariant it must keep, on write and on read.
#include "codemode/phase_audit.h"

#include <array>
#include <set>
#include <string>
#include <utility>

#include "codemode/workflow.h"

#include "core/json/json_keys.h"
#include "core/text/identifiers.h"
#include "workflow/definition/hash_material.h"
#include "workflow/definition/phase_id.h"

namespace codemode {
namespace {

constexpr std::size_t kMaxAuditBytes = 65'536;

Error audit_invalid() {
  return Error::storage_unavailable("phase_audit", "Code phase audit is invalid.");
}
Error usage_invalid() {
  return Error::storage_unavailable("phase_audit_usage", "Code phase audit usage is invalid.");
}
Error reconciliation_invalid() {
  return Error::storage_unavailable("phase_audit_reconciliation",
                                    "Code phase audit reconciliation state is invalid.");
}

bool is_cost(std::int64_t value) { return value >= 0 && value <= kMaxSafeInteger; }

Status check_usage(const CodeExecutionUsage& usage) {
  if (usage.tool_calls < 0 || usage.tool_calls > kMaxPhaseToolCalls || usage.unknown_calls < 0 ||
      usage.unknown_calls > usage.tool_calls || !is_cost(usage.known_cost_micros) ||
      !is_cost(usage.unknown_cost_micros) || !is_cost(usage.maximum_cost_micros) ||
      usage.known_cost_micros > usage.maximum_cost_micros - usage.unknown_cost_micros) {
    return usage_invalid();
  }
  return {};
}

// The receipt's call number n in "<execution_id>:code:<n>", or 0 when it is not one.
std::int64_t call_number(const std::string& call_id, const std::string& execution_id) {
  const std::string prefix = execution_id + ":code:";
  if (call_id.size() <= prefix.size() || call_id.compare(0, prefix.size(), prefix) != 0) return 0;
  std::string_view digits(call_id);
  digits.remove_prefix(prefix.size());
  if (digits.size() > 2 || digits.front() == '0') return 0;
  std::int64_t n = 0;
  for (char c : digits) {
    if (c < '0' || c > '9') return 0;
    n = n * 10 + (c - '0');
  }
  return n <= kMaxPhaseToolCalls ? n : 0;
}

Status check_evidence(const PhaseAudit& audit) {
  if (audit.evidence.size() > static_cast<std::size_t>(audit.usage.tool_calls)) {
    return reconciliation_invalid();
  }
  std::set<std::int64_t> numbers;
  std::int64_t unknown_receipts = 0;
  for (const ExecutionEvidence& entry : audit.evidence) {
    std::int64_t n = call_number(entry.receipt.call_id, audit.execution_id);
    if (entry.run_id != audit.run_id || n == 0 || !numbers.insert(n).second ||
        !internal::is_identifier(entry.receipt.tool_id)) {
      return audit_invalid();
    }
    if (entry.receipt.execution == ExecutionState::kUnknown) ++unknown_receipts;
  }
  if (unknown_receipts > audit.usage.unknown_calls) return reconciliation_invalid();
  if (audit.usage.unknown_calls > 0 && audit.outcome != OutcomeStatus::kOutcomeUnknown) {
    return reconciliation_invalid();
  }
  return {};
}

Status check_audit(const PhaseAudit& audit) {
  if (!internal::is_hex_digest(audit.run_id) || !internal::is_phase_id(audit.phase_id) ||
      audit.execution_id != audit.run_id + "/step:" + audit.phase_id + ":sandbox" ||
      !internal::is_hex_digest(audit.program_digest)) {
    return audit_invalid();
  }
  if (Status usage = check_usage(audit.usage); !usage.ok()) return usage;
  return check_evidence(audit);
}

Result<CodeExecutionUsage> usage_from_json(const Json& json) {
  static constexpr std::array<const char*, 5> kKeys{"toolCalls", "unknownCalls", "knownCostMicros",
                                                    "unknownCostMicros", "maximumCostMicros"};
  if (!json.is_object() || json.size() != kKeys.size()) return usage_invalid();
  std::array<std::int64_t, 5> values{};
  for (std::size_t i = 0; i < kKeys.size(); ++i) {
    auto found = json.find(kKeys[i]);
    if (found == json.end() || !found->is_number_integer()) return usage_invalid();
    values[i] = found->get<std::int64_t>();
  }
  return CodeExecutionUsage{.tool_calls = values[0],
                            .unknown_calls = values[1],
                            .known_cost_micros = values[2],
                            .unknown_cost_micros = values[3],
                            .maximum_cost_micros = values[4]};
}

Result<ExecutionEvidence> evidence_from_json(const Json& json) {
  if (!json.is_object() || json.size() != 2 || !json.contains("runId") ||
      !json.contains("receipt") || !json.at("runId").is_string()) {
    return audit_invalid();
  }
  const Json& receipt = json.at("receipt");
  if (!receipt.is_object() || receipt.size() != 4 ||
      !internal::only_keys(receipt, {"callId", "toolId", "execution", "disclosure"})) {
    return audit_invalid();
  }
  for (const char* key : {"callId", "toolId", "execution", "disclosure"}) {
    if (!receipt.at(key).is_string()) return audit_invalid();
  }
  auto execution = execution_state_from_string(receipt.at("execution").get<std::string>());
  auto disclosure = disclosure_from_string(receipt.at("disclosure").get<std::string>());
  if (!execution || !disclosure) return audit_invalid();
  return ExecutionEvidence{.run_id = json.at("runId").get<std::string>(),
                           .receipt = {.call_id = receipt.at("callId").get<std::string>(),
                                       .tool_id = receipt.at("toolId").get<std::string>(),
                                       .execution = *execution,
                                       .disclosure = *disclosure}};
}

std::optional<OutcomeStatus> outcome_from_string(std::string_view text) {
  for (OutcomeStatus status :
       {OutcomeStatus::kSucceeded, OutcomeStatus::kFailed, OutcomeStatus::kBlocked,
        OutcomeStatus::kCancelled, OutcomeStatus::kOutcomeUnknown}) {
    if (to_string(status) == text) return status;
  }
  return std::nullopt;
}

}  // namespace

Result<Json> to_json(const PhaseAudit& audit) {
  if (Status status = check_audit(audit); !status.ok()) return std::move(status).error();
  Json evidence = Json::array();
  for (const ExecutionEvidence& entry : audit.evidence) {
    evidence.push_back({{"runId", entry.run_id},
                        {"receipt",
                         {{"callId", entry.receipt.call_id},
                          {"toolId", entry.receipt.tool_id},
                          {"execution", to_string(entry.receipt.execution)},
                          {"disclosure", to_string(entry.receipt.disclosure)}}}});
  }
  Json json{{"format", 2},
            {"runId", audit.run_id},
            {"phaseId", audit.phase_id},
            {"executionId", audit.execution_id},
            {"programDigest", audit.program_digest},
            {"outcome", to_string(audit.outcome)},
            {"evidence", std::move(evidence)},
            {"usage",
             {{"toolCalls", audit.usage.tool_calls},
              {"unknownCalls", audit.usage.unknown_calls},
              {"knownCostMicros", audit.usage.known_cost_micros},
              {"unknownCostMicros", audit.usage.unknown_cost_micros},
              {"maximumCostMicros", audit.usage.maximum_cost_micros}}}};
  if (!check_json(json, JsonLimits{.max_bytes = kMaxAuditBytes}).ok()) return audit_invalid();
  return json;
}

Result<PhaseAudit> phase_audit_from_json(const Json& json) {
  if (!json.is_object() || json.size() != 8 ||
      !internal::only_keys(json, {"format", "runId", "phaseId", "executionId", "programDigest",
                                  "outcome", "evidence", "usage"}) ||
      json.at("format") != 2 || !check_json(json, JsonLimits{.max_bytes = kMaxAuditBytes}).ok()) {
    return audit_invalid();
  }
  for (const char* key : {"runId", "phaseId", "executionId", "programDigest", "outcome"}) {
    if (!json.at(key).is_string()) return audit_invalid();
  }
  auto outcome = outcome_from_string(json.at("outcome").get<std::string>());
  const Json& evidence_json = json.at("evidence");
  if (!outcome || !evidence_json.is_array() ||
      evidence_json.size() > static_cast<std::size_t>(kMaxPhaseToolCalls)) {
    return audit_invalid();
  }
  Result<CodeExecutionUsage> usage = usage_from_json(json.at("usage"));
  if (!usage.ok()) return std::move(usage).error();
  PhaseAudit audit{.run_id = json.at("runId").get<std::string>(),
                   .phase_id = json.at("phaseId").get<std::string>(),
                   .execution_id = json.at("executionId").get<std::string>(),
                   .program_digest = json.at("programDigest").get<std::string>(),
                   .outcome = *outcome,
                   .evidence = {},
                   .usage = *usage};
  for (const Json& entry : evidence_json) {
    Result<ExecutionEvidence> evidence = evidence_from_json(entry);
    if (!evidence.ok()) return std::move(evidence).error();
    audit.evidence.push_back(std::move(*evidence));
  }
  if (Status status = check_audit(audit); !status.ok()) return std::move(status).error();
  return audit;
}

}  // namespace codemode
