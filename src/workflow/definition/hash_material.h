// The one construction behind every workflow digest (definitions, scopes, policies, approvals,
// audit ids): sha256hex(domain + "\n" + canonical_json(value)). The domain names what is hashed
// and its version, so a digest of one kind can never be mistaken for another.
#ifndef CODEMODE_WORKFLOW_DEFINITION_HASH_MATERIAL_H_
#define CODEMODE_WORKFLOW_DEFINITION_HASH_MATERIAL_H_

#include <string>
#include <string_view>

#include "codemode/error.h"
#include "codemode/json.h"

namespace codemode::internal {

inline constexpr std::string_view kScopeDomain = "codemode:scope:v1";
inline constexpr std::string_view kWorkflowDomain = "codemode:workflow-definition:v1";
// v2: the policy names who may approve, and an approval binds its phase's binding.
inline constexpr std::string_view kPolicyDomain = "codemode:policy:v2";
inline constexpr std::string_view kApprovalDomain = "codemode:approval:v2";
inline constexpr std::string_view kPhaseBindingDomain = "codemode:phase-binding:v1";
inline constexpr std::string_view kAuditIdDomain = "codemode:code-phase-audit-id:v1";
inline constexpr std::string_view kAuditDefinitionDomain =
    "codemode:code-phase-audit-definition:v2";

// INVALID_CONFIG (rule "hash_material") when `value` is not bounded plain JSON (16 MiB).
Result<std::string> hash_material_digest(std::string_view domain, const Json& value);

// Whether `text` is 64 lowercase hex characters.
bool is_hex_digest(std::string_view text);

}  // namespace codemode::internal

#endif  // CODEMODE_WORKFLOW_DEFINITION_HASH_MATERIAL_H_
