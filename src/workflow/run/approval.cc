#include "workflow/run/approval.h"

#include <algorithm>
#include <vector>

#include "workflow/definition/hash_material.h"

namespace codemode::internal {

Result<std::string> policy_hash_of(const WorkflowRuntimeOptions& options,
                                   const Json& approver_key_fingerprints) {
  const auto sorted_unique = [](std::vector<std::string> values) {
    std::sort(values.begin(), values.end());
    values.erase(std::unique(values.begin(), values.end()), values.end());
    return values;
  };
  return hash_material_digest(
      kPolicyDomain,
      Json{{"scope",
            {{"principalId", options.scope.principal_id}, {"projectId", options.scope.project_id}}},
           {"permissions", sorted_unique(options.permissions.allow)},
           {"approvers", sorted_unique(options.approvers)},
           {"approverKeys", approver_key_fingerprints},
           {"policyVersion", options.policy_version},
           {"maxCostMicros", options.max_cost_micros},
           {"approvalTtlMs", options.approval_ttl.count()}});
}

Result<std::string> approval_digest(std::string_view run_id, std::string_view phase_id,
                                    const Tool& phase_tool, const Json& input,
                                    std::string_view policy_hash, std::string_view binding_digest,
                                    std::int64_t expires_at_millis) {
  return hash_material_digest(kApprovalDomain, Json{{"runId", run_id},
                                                    {"phaseId", phase_id},
                                                    {"tool", phase_tool.id()},
                                                    {"toolVersion", phase_tool.version()},
                                                    {"input", input},
                                                    {"policy", policy_hash},
                                                    {"binding", binding_digest},
                                                    {"expiresAt", expires_at_millis}});
}

}  // namespace codemode::internal
