// The configured roots and the one way a repository under them is named, found and opened.
//
// A repository's name is "<root name>" (the root itself) or "<root name>/<path below it>", each
// segment a plain directory name. Opening checks what libgit2 would otherwise follow silently:
// no segment may be a symbolic link, the repository's git directory, common directory and object
// store must all lie inside the root (a worktree's or submodule's ".git" file may point anywhere),
// a repository that borrows another's objects (objects/info/alternates) is refused, and so is one
// whose object store, pack or info directory holds a symbolic link. Errors
// name the repository as the caller wrote it, never a host path.
//
// Thread-safety: immutable after make; every method may be called from any thread.
#ifndef CODEMODE_REPOSITORY_WALK_REPOSITORY_ROOTS_H_
#define CODEMODE_REPOSITORY_WALK_REPOSITORY_ROOTS_H_

#include <cstddef>
#include <filesystem>
#include <stop_token>
#include <string>
#include <string_view>
#include <vector>

#include "codemode/error.h"
#include "codemode/repository_tools.h"

#include "repository/snapshot/git_handles.h"

namespace codemode::repository {

struct FoundRepository {
  std::string name;  // "<root>/<path>"
  bool bare = false;
};

struct RepositoryWalk {
  std::vector<FoundRepository> found;  // sorted by name
  bool truncated = false;              // the walk met kMaxWalkDirectories
};

// The most directories one findRepositories walk visits.
inline constexpr std::size_t kMaxWalkDirectories = 20'000;

class RepositoryRoots {
 public:
  // INVALID_CONFIG "repository_tools" for a bad name, a path that is not an absolute path to a
  // directory, or a repeated name.
  // `walk_depth` bounds both the walk and the names open accepts.
  static Result<RepositoryRoots> make(const std::vector<RepositoryRoot>& roots, int walk_depth);

  // Every repository at most `depth` directory levels below each root, in name order. Hidden
  // directories (".name") are not entered and nothing is looked for inside a repository found.
  RepositoryWalk walk(int depth, const std::stop_token& stop) const;

  // Opens the named repository read-only after the checks above. It opens only what the walk
  // would find: a name with a hidden segment, deeper than the walk depth, or inside another
  // repository (whose working tree could hold a repository-shaped directory of anyone's making)
  // is unknown_repository. repository_refused: a symbolic link, a directory outside the root,
  // alternates, another owner; repository_unreadable: libgit2 failed otherwise.
  Result<GitRepository> open(std::string_view name) const;

 private:
  struct Root {
    std::string name;
    std::filesystem::path real;  // canonical
  };
  RepositoryRoots(std::vector<Root> roots, int walk_depth)
      : roots_(std::move(roots)), walk_depth_(walk_depth) {}

  std::vector<Root> roots_;
  int walk_depth_;
};

// Whether `path` (canonical) is `root` or below it.
bool is_within(const std::filesystem::path& path, const std::filesystem::path& root);

}  // namespace codemode::repository

#endif  // CODEMODE_REPOSITORY_WALK_REPOSITORY_ROOTS_H_
