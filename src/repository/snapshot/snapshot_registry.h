// The snapshots open calls made: each pins one repository at one commit, under the handle
// "<repository>@<commit id>". A handle is usable only once open made it here, so a program cannot
// reach a commit without spending a snapshot unit; it stays usable across invocations for the
// tools' lifetime, until the registry is full and it is the least recently used (then it is
// unknown_snapshot, and open makes it again).
//
// Thread-safety: every method may be called from any thread.
#ifndef CODEMODE_REPOSITORY_SNAPSHOT_SNAPSHOT_REGISTRY_H_
#define CODEMODE_REPOSITORY_SNAPSHOT_SNAPSHOT_REGISTRY_H_

#include <cstddef>
#include <list>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

#include <git2.h>

#include "codemode/error.h"

namespace codemode::repository {

struct Snapshot {
  std::string id;          // "<repository>@<commit hex>"
  std::string repository;  // the repository's name
  git_oid commit{};
  git_oid tree{};
};

class SnapshotRegistry {
 public:
  explicit SnapshotRegistry(std::size_t capacity) : capacity_(capacity) {}

  void remember(const Snapshot& snapshot);
  // unknown_snapshot when the handle was never made here or was forgotten.
  Result<Snapshot> find(std::string_view id);

 private:
  const std::size_t capacity_;
  std::mutex mu_;
  std::list<Snapshot> recent_;  // most recently used first
  std::unordered_map<std::string, std::list<Snapshot>::iterator> by_id_;
};

}  // namespace codemode::repository

#endif  // CODEMODE_REPOSITORY_SNAPSHOT_SNAPSHOT_REGISTRY_H_
