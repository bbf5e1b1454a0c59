#include "codemode/permissions.h"

#include <unordered_set>

#include "core/text/utf16.h"

namespace codemode {
namespace {

constexpr std::size_t kMaxGrants = 4096;
constexpr std::size_t kMaxGrantLength = 384;

Status check_grant_list(const Permissions& permissions) {
  if (permissions.allow.size() > kMaxGrants) {
    return Error::invalid_config("permissions", "Permissions allow holds more than 4096 grants.");
  }
  for (const std::string& grant : permissions.allow) {
    const std::size_t length = internal::utf16_length(grant);
    if (length == 0 || length > kMaxGrantLength) {
      return Error::invalid_config("permissions",
                                   "Permissions allow entries must be 1 to 384 characters.");
    }
  }
  return {};
}

}  // namespace

std::vector<std::string> required_grants(const Tool& tool) {
  std::vector<std::string> grants;
  grants.reserve(tool.capabilities().size() + 2);
  grants.push_back("tool:" + tool.id());
  grants.insert(grants.end(), tool.capabilities().begin(), tool.capabilities().end());
  if (tool.effects() != ToolEffects::kNone) {
    grants.push_back("effect:" + std::string(to_string(tool.effects())));
  }
  return grants;
}

Status check_permissions(const Tool& tool, const Permissions& permissions) {
  if (auto s = check_grant_list(permissions); !s) return s;
  const std::unordered_set<std::string_view> allowed(permissions.allow.begin(),
                                                     permissions.allow.end());
  for (const std::string& grant : required_grants(tool)) {
    if (!allowed.contains(grant)) {
      return Error::permission_denied("permission", "The caller lacks a grant this tool requires.");
    }
  }
  return {};
}

}  // namespace codemode
