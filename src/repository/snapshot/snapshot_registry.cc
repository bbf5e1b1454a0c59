#include "repository/snapshot/snapshot_registry.h"

namespace codemode::repository {

void SnapshotRegistry::remember(const Snapshot& snapshot) {
  std::lock_guard lock(mu_);
  if (auto known = by_id_.find(snapshot.id); known != by_id_.end()) {
    recent_.splice(recent_.begin(), recent_, known->second);
    return;
  }
  recent_.push_front(snapshot);
  by_id_.emplace(snapshot.id, recent_.begin());
  if (recent_.size() > capacity_) {
    by_id_.erase(recent_.back().id);
    recent_.pop_back();
  }
}

Result<Snapshot> SnapshotRegistry::find(std::string_view id) {
  std::lock_guard lock(mu_);
  auto known = by_id_.find(std::string(id));
  if (known == by_id_.end()) {
    return Error::tool_failed("unknown_snapshot",
                              "Unknown or expired snapshot_id: open the repository again.");
  }
  recent_.splice(recent_.begin(), recent_, known->second);
  return *known->second;
}

}  // namespace codemode::repository
