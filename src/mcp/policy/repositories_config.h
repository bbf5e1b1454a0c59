// The `repositories` member of `codemode mcp`'s config: the repository tools
// (include/codemode/repository_tools.h) over named roots, with the page and snapshot budgets per
// code-mode invocation (docs/repositories.md):
//
//   "repositories": {"roots": {"code": "/srv/code"}, "pages": 8, "snapshots": 2,
//                    "namespace": "repo", "walkDepth": 4, "searchTimeMs": 2000}
//
// Only roots is required; relative root paths are relative to the config file's directory.
//
// Thread-safety: plain values.
#ifndef CODEMODE_MCP_POLICY_REPOSITORIES_CONFIG_H_
#define CODEMODE_MCP_POLICY_REPOSITORIES_CONFIG_H_

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "codemode/error.h"
#include "codemode/json.h"
#include "codemode/repository_tools.h"

#include "mcp/policy/mcp_policy.h"

namespace codemode::mcp {

struct RepositoriesConfig {
  RepositoryToolsOptions tools;
  std::int64_t pages = 8;      // 1 .. 16: pages_limit, "page budget exhausted"
  std::int64_t snapshots = 2;  // 1 .. 4: snapshots_limit, "snapshot budget exhausted"
};

// The operations the page and snapshot budgets count (the tool ids are "<namespace>.<name>").
inline constexpr std::string_view kSnapshotOperation = "open";
inline constexpr std::array<std::string_view, 6> kPageOperations = {
    "findRepositories", "refs", "list", "searchCode", "read", "context"};

// INVALID_CONFIG, rule "mcp_config", naming the field.
Result<RepositoriesConfig> parse_repositories_config(const Json& member,
                                                     const std::string& base_directory);

// The two quota classes, "pages" and "snapshots", over the repository tools' ids.
std::vector<QuotaClass> repository_quota_classes(const RepositoriesConfig& config);

}  // namespace codemode::mcp

#endif  // CODEMODE_MCP_POLICY_REPOSITORIES_CONFIG_H_
