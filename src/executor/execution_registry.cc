#include "executor/execution_registry.h"

#include <utility>

namespace codemode::internal {

ExecutionIdReservation::ExecutionIdReservation(ExecutionIdReservation&& other) noexcept
    : registry_(std::exchange(other.registry_, nullptr)), id_(std::move(other.id_)) {}

ExecutionIdReservation::~ExecutionIdReservation() {
  if (registry_ != nullptr) registry_->finish(std::move(id_));
}

Result<ExecutionIdReservation> ExecutionRegistry::reserve(const std::string& id) {
  std::lock_guard lock(mu_);
  if (running_.contains(id) || recent_.contains(id)) {
    return Error::conflict(
        "execution_id_reused",
        "This executionId is running or was used recently by this executor. Pass a new "
        "executionId for each execution.");
  }
  running_.insert(id);
  return ExecutionIdReservation(this, id);
}

void ExecutionRegistry::finish(std::string id) {
  std::lock_guard lock(mu_);
  running_.erase(id);
  recent_.insert(id);
  recent_order_.push_back(std::move(id));
  while (recent_order_.size() > recent_window_) {
    recent_.erase(recent_order_.front());
    recent_order_.pop_front();
  }
}

}  // namespace codemode::internal
