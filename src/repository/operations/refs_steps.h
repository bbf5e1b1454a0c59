// The steps of refs (refs_operation.cc), declared here so that each is tested on its own: HEAD,
// the references a filter keeps, each one's item, and the page of them that fits.
#ifndef CODEMODE_REPOSITORY_OPERATIONS_REFS_STEPS_H_
#define CODEMODE_REPOSITORY_OPERATIONS_REFS_STEPS_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include <git2.h>

#include "codemode/error.h"
#include "codemode/json.h"

#include "repository/paging/page_budget.h"

namespace codemode::repository::refs_steps {

// The most references one call lists.
inline constexpr std::size_t kMaxRefs = 100'000;

// {ref, commit_sha, detached}: the reference HEAD names (null when detached or missing) and the
// commit it leads to (null when there is none).
Json head_of(git_repository* repository);

// Whether a reference passes the request's `ref` filter: a prefix of its full or short name; an
// empty filter keeps every reference.
bool ref_matches(std::string_view name, std::string_view shorthand, std::string_view filter);

// {name, kind, commit_sha, tag_sha?}: commit_sha when the reference leads to a commit, tag_sha
// when it names an annotated tag's own object.
Json ref_item(git_reference* reference);

struct RefItem {
  std::string name;
  Json json;
};
// The references `filter` keeps, at most kMaxRefs, sorted by name; repository_unreadable (as
// `repo`) when they cannot be listed.
Result<std::vector<RefItem>> list_refs(git_repository* repository, std::string_view filter,
                                       std::string_view repo);

// The items of one page: `items` from `offset` while they fit `budget`, at most `max_items`
// (moved out of `items`); `next` is the first item not shown.
struct RefsPage {
  Json items = Json::array();
  std::size_t next = 0;
};
RefsPage page_refs(std::vector<RefItem>& items, std::size_t offset, std::size_t max_items,
                   PageBudget& budget);

}  // namespace codemode::repository::refs_steps

#endif  // CODEMODE_REPOSITORY_OPERATIONS_REFS_STEPS_H_
