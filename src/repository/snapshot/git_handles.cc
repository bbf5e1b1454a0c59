#include "repository/snapshot/git_handles.h"

#include <mutex>
#include <string>

namespace codemode::repository {

void ensure_libgit2() {
  static std::once_flag once;
  std::call_once(once, [] {
    git_libgit2_init();  // balanced never: the tools live as long as the process may use them
    for (int level : {GIT_CONFIG_LEVEL_PROGRAMDATA, GIT_CONFIG_LEVEL_SYSTEM, GIT_CONFIG_LEVEL_XDG,
                      GIT_CONFIG_LEVEL_GLOBAL}) {
      git_libgit2_opts(GIT_OPT_SET_SEARCH_PATH, level, "");
    }
    // Objects are inflated without recomputing their SHA-1, as git grep reads them: the check
    // doubled the cost of a search, and the tools only show content, they never write or trust
    // an object id they computed (docs/repositories.md, "Safety").
    git_libgit2_opts(GIT_OPT_ENABLE_STRICT_HASH_VERIFICATION, 0);
  });
}

std::string oid_hex(const git_oid& oid) {
  char text[GIT_OID_HEXSZ + 1];
  git_oid_tostr(text, sizeof text, &oid);
  return std::string(text, GIT_OID_HEXSZ);
}

}  // namespace codemode::repository
