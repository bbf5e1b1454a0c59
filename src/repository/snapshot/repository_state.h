// What the seven repository tools share: the options, the roots, the snapshots opened so far and
// the cursor key. One per make_repository_tools; each tool holds it by shared_ptr.
//
// Thread-safety: the members are immutable or synchronise themselves.
#ifndef CODEMODE_REPOSITORY_SNAPSHOT_REPOSITORY_STATE_H_
#define CODEMODE_REPOSITORY_SNAPSHOT_REPOSITORY_STATE_H_

#include <string>
#include <string_view>

#include "codemode/repository_tools.h"

#include "repository/paging/page_cursor.h"
#include "repository/search/search_file_cache.h"
#include "repository/snapshot/snapshot_registry.h"
#include "repository/walk/repository_roots.h"

namespace codemode::repository {

struct RepositoryState {
  RepositoryState(RepositoryToolsOptions tool_options, RepositoryRoots repository_roots)
      : options(std::move(tool_options)),
        roots(std::move(repository_roots)),
        snapshots(options.max_snapshots) {}

  std::string tool_id(std::string_view operation) const {
    return options.tool_namespace + "." + std::string(operation);
  }

  const RepositoryToolsOptions options;
  const RepositoryRoots roots;
  SnapshotRegistry snapshots;
  const CursorKey cursor_key;
  SearchFileCache search_files;
};

}  // namespace codemode::repository

#endif  // CODEMODE_REPOSITORY_SNAPSHOT_REPOSITORY_STATE_H_
