// open: pins a repository at one commit and remembers the snapshot for later operations.
#include <algorithm>

#include "core/json/json_text.h"
#include "repository/operations/operations.h"
#include "repository/snapshot/git_handles.h"
#include "repository/snapshot/snapshot_reader.h"
#include "repository/snapshot/text_lines.h"

namespace codemode::repository {
namespace {

constexpr std::string_view kName = "open";

constexpr std::string_view kSchema = R"({"type": "object", "additionalProperties": false,
  "required": ["repo"],
  "properties": {
    "repo": {"type": "string", "minLength": 1, "maxLength": 1024, "description": "A name findRepositories returned."},
    "ref": {"type": "string", "minLength": 1, "maxLength": 256, "description": "A branch, tag or full ref name, or a full 40-hex commit id. Default: HEAD."},
    "freshness": {"enum": ["allow_stale", "require_fresh"], "description": "Accepted for compatibility: repositories are local, so every open reads the ref as it is now."}}})";

bool is_commit_hex(std::string_view text) {
  return text.size() == GIT_OID_HEXSZ && std::all_of(text.begin(), text.end(), [](char c) {
           return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
         });
}

Error unknown_ref(std::string_view repo, std::string_view ref) {
  return Error::tool_failed("unknown_ref", "Repository '" + std::string(repo) +
                                               "' has no commit named '" + std::string(ref) + "'.");
}

Result<Json> open(RepositoryState& state, const Json& input, const ToolContext&) {
  const std::string repo = string_of(input, "repo");
  const std::string ref = string_of(input, "ref");
  Result<GitRepository> repository = state.roots.open(repo);
  if (!repository.ok()) return std::move(repository).error();

  GitObject commit;
  Json ref_name(nullptr);
  if (ref.empty()) {
    if (git_repository_head_unborn(repository->get()) == 1 ||
        git_repository_is_empty(repository->get()) == 1) {
      return Error::tool_failed("empty_repository", "Repository '" + repo + "' has no commit yet.");
    }
    git_reference* raw = nullptr;
    if (git_repository_head(&raw, repository->get()) != 0) return unreadable(repo);
    GitReference head(raw);
    ref_name = git_reference_name(head.get());
    git_object* peeled = nullptr;
    if (git_reference_peel(&peeled, head.get(), GIT_OBJECT_COMMIT) != 0) return unreadable(repo);
    commit.reset(peeled);
  } else if (is_commit_hex(ref)) {
    git_oid oid{};
    git_object* raw = nullptr;
    if (git_oid_fromstr(&oid, ref.c_str()) != 0 ||
        git_object_lookup(&raw, repository->get(), &oid, GIT_OBJECT_COMMIT) != 0) {
      return unknown_ref(repo, ref);
    }
    commit.reset(raw);
  } else {
    // Names only (as git rev-parse would read a branch or tag): no revision syntax, which could
    // walk history or reflogs at a caller's choice.
    if (ref.find_first_of("~^:@{}\\ ") != std::string::npos || ref.starts_with("-")) {
      return unknown_ref(repo, ref);
    }
    git_reference* raw = nullptr;
    if (git_reference_dwim(&raw, repository->get(), ref.c_str()) != 0) {
      return unknown_ref(repo, ref);
    }
    GitReference reference(raw);
    ref_name = git_reference_name(reference.get());
    git_object* peeled = nullptr;
    if (git_reference_peel(&peeled, reference.get(), GIT_OBJECT_COMMIT) != 0) {
      return unknown_ref(repo, ref);
    }
    commit.reset(peeled);
  }

  const git_commit* as_commit = reinterpret_cast<const git_commit*>(commit.get());
  Snapshot snapshot{.id = repo + "@" + oid_hex(*git_object_id(commit.get())),
                    .repository = repo,
                    .commit = *git_object_id(commit.get()),
                    .tree = *git_commit_tree_id(as_commit)};
  state.snapshots.remember(snapshot);
  const char* summary = git_commit_summary(const_cast<git_commit*>(as_commit));
  bool cut = false;
  Json answer{{"snapshot_id", snapshot.id},
              {"repo", repo},
              {"ref", ref_name},
              {"commit_sha", oid_hex(snapshot.commit)},
              {"tree_sha", oid_hex(snapshot.tree)},
              {"committed_at", static_cast<std::int64_t>(git_commit_time(as_commit))},
              {"summary", summary ? internal::cut_utf8(shown_line(summary, cut), 256) : ""}};
  return answer;
}

}  // namespace

OperationSpec open_operation() {
  return OperationSpec{
      .name = kName,
      .description =
          "Open a snapshot of a repository pinned to one commit (HEAD, a branch, a tag "
          "or a commit id). Its snapshot_id stays valid for later programs too. "
          "Returns {snapshot_id, repo, ref, commit_sha, tree_sha, committed_at (Unix "
          "seconds), summary}.",
      .input_schema = kSchema,
      .timeout = std::chrono::milliseconds(10'000),
      .run = open,
      .opens_snapshot = true};
}

}  // namespace codemode::repository
