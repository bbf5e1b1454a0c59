#include "codemode/repository_tools.h"

#include <memory>
#include <utility>

#include "repository/operations/operations.h"
#include "repository/snapshot/repository_state.h"

namespace codemode {
namespace {

bool is_namespace(std::string_view name) {
  if (name.empty() || name.size() > 32) return false;
  if (!((name[0] >= 'A' && name[0] <= 'Z') || (name[0] >= 'a' && name[0] <= 'z'))) return false;
  for (char c : name) {
    if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) {
      return false;
    }
  }
  return true;
}

Error invalid(std::string_view field, std::string_view why) {
  return Error::invalid_config("repository_tools", std::string(field) + " " + std::string(why));
}

}  // namespace

Result<RepositoryTools> make_repository_tools(const RepositoryToolsOptions& options) {
  if (!is_namespace(options.tool_namespace)) {
    return invalid("tool_namespace", "does not match ^[A-Za-z][A-Za-z0-9_]{0,31}$.");
  }
  if (options.walk_depth < 1 || options.walk_depth > 16) {
    return invalid("walk_depth", "is not between 1 and 16.");
  }
  if (options.search_time < std::chrono::milliseconds(10) ||
      options.search_time > std::chrono::milliseconds(60'000)) {
    return invalid("search_time", "is not between 10 ms and 60 s.");
  }
  if (options.max_snapshots < 1 || options.max_snapshots > 65'536) {
    return invalid("max_snapshots", "is not between 1 and 65,536.");
  }
  Result<repository::RepositoryRoots> roots =
      repository::RepositoryRoots::make(options.roots, options.walk_depth);
  if (!roots.ok()) return std::move(roots).error();
  auto state = std::make_shared<repository::RepositoryState>(options, std::move(*roots));
  RepositoryTools tools;
  for (const repository::OperationSpec& spec :
       {repository::find_repositories_operation(), repository::refs_operation(),
        repository::open_operation(), repository::list_operation(),
        repository::search_code_operation(), repository::read_operation(),
        repository::context_operation()}) {
    Tool tool = repository::define_operation(state, spec);
    if (spec.opens_snapshot) {
      tools.snapshot_tools.push_back(tool.id());
    } else {
      tools.page_tools.push_back(tool.id());
    }
    tools.tools.push_back(std::move(tool));
  }
  return tools;
}

}  // namespace codemode
