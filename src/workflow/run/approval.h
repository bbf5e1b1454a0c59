// The digests an approval binds: the runtime's policy and the approval itself.
#ifndef CODEMODE_WORKFLOW_RUN_APPROVAL_H_
#define CODEMODE_WORKFLOW_RUN_APPROVAL_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "codemode/error.h"
#include "codemode/json.h"
#include "codemode/tool.h"
#include "codemode/workflow_runtime.h"

namespace codemode::internal {

// sha256 of the normalized policy {scope, permissions (sorted, unique), approvers (sorted,
// unique), approverKeys (their fingerprints), policyVersion, maxCostMicros, approvalTtlMs}.
Result<std::string> policy_hash_of(const WorkflowRuntimeOptions& options,
                                   const Json& approver_key_fingerprints);

// sha256 of {runId, phaseId, tool, toolVersion, input, policy, binding, expiresAt}: `binding` is
// the phase binding's digest (workflow/definition/phase_binding.h).
Result<std::string> approval_digest(std::string_view run_id, std::string_view phase_id,
                                    const Tool& phase_tool, const Json& input,
                                    std::string_view policy_hash, std::string_view binding_digest,
                                    std::int64_t expires_at_millis);

}  // namespace codemode::internal

#endif  // CODEMODE_WORKFLOW_RUN_APPROVAL_H_
