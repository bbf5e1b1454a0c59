#include "workflow/audit/audit_log.h"

#include <string>
#include <utility>

#include "workflow/definition/hash_material.h"

namespace codemode::internal {
namespace {

Error identity_invalid() {
  return Error::storage_unavailable("phase_audit_identity",
                                    "Code phase audit identity is invalid.");
}

Result<std::string> audit_id_of(std::string_view scope_digest, std::string_view run_id,
                                std::string_view phase_id) {
  return hash_material_digest(
      kAuditIdDomain, Json{{"scope", scope_digest}, {"runId", run_id}, {"phaseId", phase_id}});
}

Result<std::string> audit_definition_hash() {
  return hash_material_digest(kAuditDefinitionDomain, Json{{"format", 2}});
}

// The record's identity is the one asked for, and its state is a valid audit of that run and
// phase.
Result<PhaseAudit> check_record(const StoredAudit& record, std::string_view scope_digest,
                                const std::string& audit_id, const std::string& definition_hash,
                                std::string_view run_id, std::string_view phase_id) {
  if (record.scope_digest != scope_digest || record.audit_id != audit_id ||
      record.idempotency_key != audit_id || record.definition_hash != definition_hash ||
      record.version < 1) {
    return identity_invalid();
  }
  Json state = Json::parse(record.state, nullptr, /*allow_exceptions=*/false);
  if (state.is_discarded()) {
    return Error::storage_unavailable("phase_audit", "Code phase audit is invalid.");
  }
  Result<PhaseAudit> audit = phase_audit_from_json(state);
  if (!audit.ok()) return audit;
  if (audit->run_id != run_id || audit->phase_id != phase_id) return identity_invalid();
  return audit;
}

}  // namespace

Status write_phase_audit(WorkflowStore& store, std::string_view scope_digest,
                         const PhaseAudit& audit) {
  Result<Json> state = to_json(audit);
  if (!state.ok()) return std::move(state).error();
  Result<std::string> id = audit_id_of(scope_digest, audit.run_id, audit.phase_id);
  Result<std::string> definition_hash = audit_definition_hash();
  if (!id.ok() || !definition_hash.ok()) return identity_invalid();
  Result<StoredAudit> stored =
      store.create_audit(StoredAudit{.scope_digest = std::string(scope_digest),
                                     .audit_id = *id,
                                     .idempotency_key = *id,
                                     .definition_hash = *definition_hash,
                                     .version = 1,
                                     .state = state->dump()});
  if (!stored.ok()) return std::move(stored).error();
  Result<PhaseAudit> echoed =
      check_record(*stored, scope_digest, *id, *definition_hash, audit.run_id, audit.phase_id);
  if (!echoed.ok()) return std::move(echoed).error();
  if (!(*echoed == audit)) return identity_invalid();
  return {};
}

Result<std::optional<PhaseAudit>> read_phase_audit(WorkflowStore& store,
                                                   std::string_view scope_digest,
                                                   std::string_view run_id,
                                                   std::string_view phase_id) {
  Result<std::string> id = audit_id_of(scope_digest, run_id, phase_id);
  Result<std::string> definition_hash = audit_definition_hash();
  if (!id.ok() || !definition_hash.ok()) return identity_invalid();
  Result<std::optional<StoredAudit>> stored = store.read_audit(scope_digest, *id);
  if (!stored.ok()) return std::move(stored).error();
  if (!stored->has_value()) return std::optional<PhaseAudit>();
  Result<PhaseAudit> audit =
      check_record(**stored, scope_digest, *id, *definition_hash, run_id, phase_id);
  if (!audit.ok()) return std::move(audit).error();
  return std::optional<PhaseAudit>(std::move(*audit));
}

}  // namespace codemode::internal
