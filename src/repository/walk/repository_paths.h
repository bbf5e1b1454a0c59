// Paths inside a snapshot and the globs that filter them.
//
// A path is repository-relative, "/"-separated, as git stores it: no leading "/", no empty, "."
// or ".." segment, no ".git" segment (nothing of a repository's own store is reachable), no NUL,
// at most 4,096 bytes; anything else is path_refused. The root is "".
//
// A glob without "/" matches a path's last segment anywhere ("*.md"); one with "/" matches the
// whole path ("src/**/*.rs"). "*" and "?" stop at "/", "**" crosses it, "[...]" is a class. Globs
// compile to RE2, so matching is linear whatever the glob.
#ifndef CODEMODE_REPOSITORY_WALK_REPOSITORY_PATHS_H_
#define CODEMODE_REPOSITORY_WALK_REPOSITORY_PATHS_H_

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "codemode/error.h"

namespace re2 {
class RE2;
}

namespace codemode::repository {

inline constexpr std::size_t kMaxPathBytes = 4'096;

// The normalized path ("" for the root; a trailing "/" dropped), or path_refused naming the rule.
Result<std::string> checked_path(std::string_view path);

// Whether `path` is `prefix` or below it ("" is every path's prefix).
bool has_path_prefix(std::string_view path, std::string_view prefix);

// Include and exclude globs: a path passes when it matches one include (or there is none) and no
// exclude.
class PathFilter {
 public:
  // invalid_pattern naming the glob's field for a glob that does not compile or is over 256 bytes.
  static Result<PathFilter> make(const std::vector<std::string>& includes,
                                 const std::vector<std::string>& excludes);
  PathFilter();
  ~PathFilter();
  PathFilter(PathFilter&&) noexcept;
  PathFilter& operator=(PathFilter&&) noexcept;

  bool passes(std::string_view path) const;

 private:
  struct Glob {
    std::unique_ptr<re2::RE2> pattern;
    bool whole_path = false;
  };
  static bool matches(const Glob& glob, std::string_view path);

  std::vector<Glob> includes_;
  std::vector<Glob> excludes_;
};

}  // namespace codemode::repository

#endif  // CODEMODE_REPOSITORY_WALK_REPOSITORY_PATHS_H_
