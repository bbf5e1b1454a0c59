// refs: a repository's HEAD, branches and tags, each with the commit it names.
#include <algorithm>
#include <vector>

#include "repository/operations/operations.h"
#include "repository/operations/refs_steps.h"
#include "repository/paging/page_budget.h"
#include "repository/snapshot/git_handles.h"
#include "repository/snapshot/snapshot_reader.h"

namespace codemode::repository {
namespace {

constexpr std::string_view kName = "refs";

constexpr std::string_view kSchema = R"({"type": "object", "additionalProperties": false,
  "required": ["repo"],
  "properties": {
    "repo": {"type": "string", "minLength": 1, "maxLength": 1024, "description": "A name findRepositories returned."},
    "ref": {"type": "string", "minLength": 1, "maxLength": 256, "description": "Keep refs whose full or short name starts with this (\"refs/tags/\", \"main\")."},
    "max_items": {"type": "integer", "minimum": 1, "maximum": 1000, "description": "Default 100."},
    @PAGING@}})";

std::string_view kind_of(std::string_view name) {
  if (name.starts_with("refs/heads/")) return "branch";
  if (name.starts_with("refs/tags/")) return "tag";
  if (name.starts_with("refs/remotes/")) return "remote";
  return "other";
}

// The commit a reference leads to, through annotated tags; none for a tag of a tree or blob.
std::optional<std::string> peeled_commit(git_reference* reference) {
  git_object* raw = nullptr;
  if (git_reference_peel(&raw, reference, GIT_OBJECT_COMMIT) != 0) return std::nullopt;
  GitObject commit(raw);
  return oid_hex(*git_object_id(commit.get()));
}

}  // namespace

namespace refs_steps {

Json head_of(git_repository* repository) {
  Json head{{"ref", nullptr}, {"commit_sha", nullptr}, {"detached", false}};
  git_reference* raw = nullptr;
  if (git_reference_lookup(&raw, repository, "HEAD") != 0) return head;
  GitReference symbolic(raw);
  if (git_reference_type(symbolic.get()) == GIT_REFERENCE_SYMBOLIC) {
    head["ref"] = git_reference_symbolic_target(symbolic.get());
  } else {
    head["detached"] = true;
  }
  git_reference* resolved = nullptr;
  if (git_reference_resolve(&resolved, symbolic.get()) == 0) {
    GitReference direct(resolved);
    if (std::optional<std::string> commit = peeled_commit(direct.get())) {
      head["commit_sha"] = *commit;
    }
  }
  return head;
}

bool ref_matches(std::string_view name, std::string_view shorthand, std::string_view filter) {
  return filter.empty() || name.starts_with(filter) || shorthand.starts_with(filter);
}

Json ref_item(git_reference* reference) {
  const std::string name = git_reference_name(reference);
  Json item{{"name", name}, {"kind", kind_of(name)}};
  git_reference* resolved = nullptr;
  if (git_reference_resolve(&resolved, reference) != 0) return item;
  GitReference direct(resolved);
  if (std::optional<std::string> commit = peeled_commit(direct.get())) {
    item["commit_sha"] = *commit;
  }
  const git_oid* target = git_reference_target(direct.get());
  if (target != nullptr && item.contains("commit_sha") &&
      oid_hex(*target) != item["commit_sha"].get<std::string>()) {
    item["tag_sha"] = oid_hex(*target);  // an annotated tag's own object
  }
  return item;
}

Result<std::vector<RefItem>> list_refs(git_repository* repository, std::string_view filter,
                                       std::string_view repo) {
  std::vector<RefItem> items;
  git_reference_iterator* raw_iterator = nullptr;
  if (git_reference_iterator_new(&raw_iterator, repository) != 0) return unreadable(repo);
  GitReferenceIterator iterator(raw_iterator);
  git_reference* raw = nullptr;
  while (items.size() < kMaxRefs && git_reference_next(&raw, iterator.get()) == 0) {
    GitReference reference(raw);
    const std::string name = git_reference_name(reference.get());
    if (!ref_matches(name, git_reference_shorthand(reference.get()), filter)) continue;
    items.push_back({name, ref_item(reference.get())});
  }
  std::sort(items.begin(), items.end(),
            [](const RefItem& a, const RefItem& b) { return a.name < b.name; });
  return items;
}

RefsPage page_refs(std::vector<RefItem>& items, std::size_t offset, std::size_t max_items,
                   PageBudget& budget) {
  RefsPage page{.next = std::min(offset, items.size())};
  while (page.next < items.size() && page.items.size() < max_items) {
    if (!budget.take(json_size(items[page.next].json) + 1)) break;
    page.items.push_back(std::move(items[page.next].json));
    ++page.next;
  }
  return page;
}

}  // namespace refs_steps

namespace {

using namespace refs_steps;

Result<Json> refs(RepositoryState& state, const Json& input, const ToolContext&) {
  const std::string repo = string_of(input, "repo");
  Result<Json> start = page_start(state, kName, repo, input);
  if (!start.ok()) return std::move(start).error();
  Result<GitRepository> repository = state.roots.open(repo);
  if (!repository.ok()) return std::move(repository).error();
  Json head = head_of(repository->get());
  Result<std::vector<RefItem>> items = list_refs(repository->get(), string_of(input, "ref"), repo);
  if (!items.ok()) return std::move(items).error();

  const std::size_t offset = start->is_number_unsigned() ? start->get<std::size_t>() : 0;
  const std::size_t max_items = static_cast<std::size_t>(integer_of(input, "max_items", 100));
  const std::size_t max_bytes = max_bytes_of(input);
  Json page{{"repo", repo},
            {"head", std::move(head)},
            {"items", Json::array()},
            {"returned_items", 0},
            {"total_items", items->size()}};
  PageBudget budget(max_bytes, page);
  if (!budget.viable()) return page_too_small();
  RefsPage shown = page_refs(*items, offset, max_items, budget);
  if (shown.items.empty() && shown.next < items->size()) return page_too_small();
  page["returned_items"] = shown.items.size();
  page["items"] = std::move(shown.items);
  std::optional<std::string> cursor;
  if (shown.next < items->size()) cursor = next_cursor(state, kName, repo, input, Json(shown.next));
  return finish_page(std::move(page), max_bytes, cursor);
}

}  // namespace

OperationSpec refs_operation() {
  return OperationSpec{
      .name = kName,
      .description =
          "List a repository's HEAD, branches and tags with the commit each names. "
          "Returns {repo, head: {ref, commit_sha, detached}, items: [{name, kind, "
          "commit_sha, tag_sha?}], has_more, next_cursor, budget}.",
      .input_schema = kSchema,
      .timeout = std::chrono::milliseconds(10'000),
      .run = refs};
}

}  // namespace codemode::repository
