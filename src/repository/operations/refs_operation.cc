// refs: a repository's HEAD, branches and tags, each with the commit it names.
#include <algorithm>
#include <vector>

#include "repository/operations/operations.h"
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

struct RefItem {
  std::string name;
  Json json;
};

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

Result<Json> refs(RepositoryState& state, const Json& input, const ToolContext&) {
  const std::string repo = string_of(input, "repo");
  Result<Json> start = page_start(state, kName, repo, input);
  if (!start.ok()) return std::move(start).error();
  Result<GitRepository> repository = state.roots.open(repo);
  if (!repository.ok()) return std::move(repository).error();
  const std::string filter = string_of(input, "ref");

  Json head{{"ref", nullptr}, {"commit_sha", nullptr}, {"detached", false}};
  {
    git_reference* raw = nullptr;
    if (git_reference_lookup(&raw, repository->get(), "HEAD") == 0) {
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
    }
  }

  std::vector<RefItem> items;
  git_reference_iterator* raw_iterator = nullptr;
  if (git_reference_iterator_new(&raw_iterator, repository->get()) != 0) return unreadable(repo);
  GitReferenceIterator iterator(raw_iterator);
  constexpr std::size_t kMaxRefs = 100'000;
  git_reference* raw = nullptr;
  while (items.size() < kMaxRefs && git_reference_next(&raw, iterator.get()) == 0) {
    GitReference reference(raw);
    const std::string name = git_reference_name(reference.get());
    const std::string_view shorthand = git_reference_shorthand(reference.get());
    if (!filter.empty() && !name.starts_with(filter) && !shorthand.starts_with(filter)) continue;
    Json item{{"name", name}, {"kind", kind_of(name)}};
    git_reference* resolved = nullptr;
    if (git_reference_resolve(&resolved, reference.get()) == 0) {
      GitReference direct(resolved);
      if (std::optional<std::string> commit = peeled_commit(direct.get())) {
        item["commit_sha"] = *commit;
      }
      const git_oid* target = git_reference_target(direct.get());
      if (target != nullptr && item.contains("commit_sha") &&
          oid_hex(*target) != item["commit_sha"].get<std::string>()) {
        item["tag_sha"] = oid_hex(*target);  // an annotated tag's own object
      }
    }
    items.push_back({name, std::move(item)});
  }
  std::sort(items.begin(), items.end(),
            [](const RefItem& a, const RefItem& b) { return a.name < b.name; });

  const std::size_t offset = start->is_number_unsigned() ? start->get<std::size_t>() : 0;
  const std::size_t max_items = static_cast<std::size_t>(integer_of(input, "max_items", 100));
  const std::size_t max_bytes = max_bytes_of(input);
  Json page{{"repo", repo},
            {"head", head},
            {"items", Json::array()},
            {"returned_items", 0},
            {"total_items", items.size()}};
  PageBudget budget(max_bytes, page);
  if (!budget.viable()) return page_too_small();
  std::size_t at = std::min(offset, items.size());
  Json shown = Json::array();
  while (at < items.size() && shown.size() < max_items) {
    if (!budget.take(json_size(items[at].json) + 1)) break;
    shown.push_back(std::move(items[at].json));
    ++at;
  }
  if (shown.empty() && at < items.size()) return page_too_small();
  page["returned_items"] = shown.size();
  page["items"] = std::move(shown);
  std::optional<std::string> cursor;
  if (at < items.size()) cursor = next_cursor(state, kName, repo, input, Json(at));
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
