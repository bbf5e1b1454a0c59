// One operation's read access to a snapshot: its repository opened afresh (repository_roots.h
// checks), its commit's tree, and lookups by path that never leave that tree. A symbolic link is
// an entry like any other, never followed; a submodule is another repository's commit, never
// entered.
//
// Thread-safety: one per operation, used by one thread.
#ifndef CODEMODE_REPOSITORY_SNAPSHOT_SNAPSHOT_READER_H_
#define CODEMODE_REPOSITORY_SNAPSHOT_SNAPSHOT_READER_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <stop_token>
#include <string>
#include <string_view>

#include <git2.h>

#include "codemode/error.h"
#include "codemode/json.h"

#include "repository/snapshot/git_handles.h"
#include "repository/snapshot/repository_state.h"
#include "repository/snapshot/snapshot_registry.h"

namespace codemode::repository {

enum class EntryKind { kFile, kDirectory, kSymlink, kSubmodule };
std::string_view to_string(EntryKind kind);

struct SnapshotEntry {
  std::string path;  // repository-relative
  EntryKind kind = EntryKind::kFile;
  git_oid oid{};  // blob, tree, or the submodule's commit
  int depth = 0;  // 1 for a child of the walk's start
};

// The largest blob read shows, and the largest searchCode and context scan.
inline constexpr std::uint64_t kMaxReadBlobBytes = 64ull << 20;
inline constexpr std::uint64_t kMaxSearchBlobBytes = 8ull << 20;
// The most entries one walk of a snapshot's trees visits.
inline constexpr std::size_t kMaxWalkEntries = 500'000;

class SnapshotReader {
 public:
  static Result<SnapshotReader> open(RepositoryState& state, std::string_view snapshot_id);

  const Snapshot& snapshot() const { return snapshot_; }
  // {snapshot_id, repo, commit_sha}: where every answer about this snapshot comes from.
  Json provenance() const;

  // The entry at `path` ("" is the root directory): path_not_found.
  Result<SnapshotEntry> entry(const std::string& path) const;
  // Visits the entries below the directory `start` ("" the root) at most `depth` levels down, in
  // tree order, until `visit` returns false or kMaxWalkEntries entries were visited (then the
  // answer is true: truncated). A tree can name the same subtree many times over, so a small
  // commit can hold billions of paths; every walk stops at the cap. Entries whose name is not
  // UTF-8 or whose path passes kMaxPathBytes are skipped, never shown. repository_unreadable on a
  // tree that cannot be read.
  Result<bool> walk(const std::string& start, int depth,
                    const std::function<bool(const SnapshotEntry&)>& visit) const;
  // A blob's size without reading it.
  Result<std::uint64_t> blob_size(const git_oid& oid) const;
  Result<GitBlob> blob(const git_oid& oid) const;

 private:
  SnapshotReader(Snapshot snapshot, GitRepository repository, GitTree tree, GitOdb odb)
      : snapshot_(std::move(snapshot)),
        repository_(std::move(repository)),
        tree_(std::move(tree)),
        odb_(std::move(odb)) {}

  struct WalkState {
    std::size_t visited = 0;
    bool stopped = false;
    bool truncated = false;
  };
  Status walk_tree(const git_tree* tree, const std::string& prefix, int level, int depth,
                   const std::function<bool(const SnapshotEntry&)>& visit, WalkState& walk) const;

  Snapshot snapshot_;
  GitRepository repository_;
  GitTree tree_;
  GitOdb odb_;
};

// repository_unreadable: what every libgit2 failure becomes (its text can hold host paths).
Error unreadable(std::string_view repository);

}  // namespace codemode::repository

#endif  // CODEMODE_REPOSITORY_SNAPSHOT_SNAPSHOT_READER_H_
