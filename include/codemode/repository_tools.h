// Repository tools: seven read-only operations over the git repositories under configured roots,
// for programs that read code (docs/repositories.md). Built on libgit2; nothing here writes to a
// repository, its index or its working tree.
//
//   findRepositories  the repositories under the roots (a bounded walk)           a page
//   refs              a repository's HEAD, branches and tags                      a page
//   open              a snapshot pinned to one commit, reusable by its handle     a snapshot
//   list              a snapshot's entries, structured or as paths                a page
//   searchCode        literal or RE2 matches with context lines                   a page
//   read              a file's lines: text, numbered lines or structured          a page
//   context           the windows where the most queries match, merged           a page
//
//   Result<RepositoryTools> tools = make_repository_tools(
//       {.roots = {{.name = "code", .path = "/srv/code"}}});
//   for (const Tool& tool : tools->tools) catalog.add(tool);
//
// Each answer fits the call's max_bytes (1,024 .. 262,144, default 65,536), says how many bytes
// it used and warns near the limit, and continues with an opaque cursor that is authenticated
// with a key of this RepositoryTools' own, so a cursor cannot be forged, nor replayed against
// another operation, snapshot or arguments. Names are "<root>/<path below the root>"; host paths
// never appear in an answer or an error. A refusal fails the call with its own rule
// (ToolResponder::fail_as): unknown_repository, repository_refused, unknown_ref, empty_repository,
// unknown_snapshot, path_refused, path_not_found, not_a_file, file_too_large, cursor_invalid,
// cursor_mismatch, invalid_pattern, invalid_range, page_too_small, repository_unreadable.
//
// The page and snapshot budgets (pages_limit, snapshots_limit; docs/repositories.md, "Budgets") are
// per-invocation unit budgets kept by whoever runs the tools; `page_tools` and `snapshot_tools`
// name the tools each one counts (codemode mcp's `repositories` member does this).
//
// Ownership and thread-safety: the tools share one state (the roots, the snapshots opened so far,
// the cursor key) that lives as long as any of them; they may be called from any number of threads
// at once.
#ifndef CODEMODE_REPOSITORY_TOOLS_H_
#define CODEMODE_REPOSITORY_TOOLS_H_

#include <chrono>
#include <cstddef>
#include <string>
#include <vector>

#include "codemode/error.h"
#include "codemode/export.h"
#include "codemode/tool.h"

namespace codemode {

// A directory whose repositories the tools may read, under a name of its own.
struct RepositoryRoot {
  // ^[A-Za-z][A-Za-z0-9_-]{0,63}$: the first segment of every repository name under it, so the
  // host's path is never shown.
  std::string name;
  // An absolute path to an existing directory. Resolved once, symbolic links included; a
  // repository whose git directory or objects lie outside it is refused, and so is one that
  // borrows another repository's objects (alternates), wherever they are.
  std::string path;
};

struct RepositoryToolsOptions {
  std::vector<RepositoryRoot> roots;  // 1 .. 16, names unique
  // The tools' ids are "<tool_namespace>.findRepositories", ... (so code mode's
  // codemode.repo.findRepositories). ^[A-Za-z][A-Za-z0-9_]{0,31}$.
  std::string tool_namespace = "repo";
  // findRepositories looks this many directory levels below each root (1 .. 16).
  int walk_depth = 4;
  // read's default format: "text" when set (code mode's compact default), else "structured".
  bool compact_defaults = false;
  // The most one searchCode or context page may spend scanning; past it the page ends with what
  // it found, says so, and continues with its cursor. 10 ms .. 60 s.
  std::chrono::milliseconds search_time{2'000};
  // The most snapshots remembered; past it the least recently used is forgotten (its handle is
  // then unknown_snapshot). 1 .. 65,536.
  std::size_t max_snapshots = 4'096;
};

struct RepositoryTools {
  std::vector<Tool> tools;                  // the seven, in the order above
  std::vector<std::string> page_tools;      // ids of the six that produce a page
  std::vector<std::string> snapshot_tools;  // the id of open
};

// INVALID_CONFIG, rule "repository_tools", naming the field, for options out of range, a root
// that is not an absolute path to a directory, or a repeated root name.
CODEMODE_EXPORT Result<RepositoryTools> make_repository_tools(
    const RepositoryToolsOptions& options);

}  // namespace codemode

#endif  // CODEMODE_REPOSITORY_TOOLS_H_
