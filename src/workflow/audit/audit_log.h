// Writing and reading phase audits through a WorkflowStore, with the record's identity checked
// both ways: a store that hands back another record, or a changed one, is not trusted.
#ifndef CODEMODE_WORKFLOW_AUDIT_AUDIT_LOG_H_
#define CODEMODE_WORKFLOW_AUDIT_AUDIT_LOG_H_

#include <optional>
#include <string_view>

#include "codemode/error.h"
#include "codemode/phase_audit.h"
#include "codemode/workflow_store.h"

namespace codemode::internal {

// Writes the audit once per (scope, run, phase). STORAGE_UNAVAILABLE when it breaks an invariant,
// the store fails, or the store returns a record other than the one written.
Status write_phase_audit(WorkflowStore& store, std::string_view scope_digest,
                         const PhaseAudit& audit);

// The audit of (scope, run, phase), or none. STORAGE_UNAVAILABLE when the stored record breaks
// an invariant or names another identity.
Result<std::optional<PhaseAudit>> read_phase_audit(WorkflowStore& store,
                                                   std::string_view scope_digest,
                                                   std::string_view run_id,
                                                   std::string_view phase_id);

}  // namespace codemode::internal

#endif  // CODEMODE_WORKFLOW_AUDIT_AUDIT_LOG_H_
