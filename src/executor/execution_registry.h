// ExecutionRegistry remembers which execution ids an executor is running and the last 100,000 it
// finished, so an id is never run twice while it could still be confused with an earlier run.
//
// Thread-safety: all methods are thread-safe.
#ifndef CODEMODE_EXECUTOR_EXECUTION_REGISTRY_H_
#define CODEMODE_EXECUTOR_EXECUTION_REGISTRY_H_

#include <cstddef>
#include <deque>
#include <mutex>
#include <string>
#include <unordered_set>

#include "codemode/error.h"

namespace codemode::internal {

class ExecutionRegistry;

// Holds one execution id as running; on destruction the id moves to the recently-finished window.
class ExecutionIdReservation {
 public:
  ExecutionIdReservation(ExecutionIdReservation&& other) noexcept;
  ExecutionIdReservation& operator=(ExecutionIdReservation&&) = delete;
  ExecutionIdReservation(const ExecutionIdReservation&) = delete;
  ~ExecutionIdReservation();

 private:
  friend class ExecutionRegistry;
  ExecutionIdReservation(ExecutionRegistry* registry, std::string id)
      : registry_(registry), id_(std::move(id)) {}
  ExecutionRegistry* registry_;  // null once moved from; must outlive this reservation
  std::string id_;
};

class ExecutionRegistry {
 public:
  static constexpr std::size_t kRecentWindow = 100'000;

  explicit ExecutionRegistry(std::size_t recent_window = kRecentWindow)
      : recent_window_(recent_window) {}

  // CONFLICT (rule "execution_id_reused") when `id` is running or among the recent window.
  Result<ExecutionIdReservation> reserve(const std::string& id);

 private:
  friend class ExecutionIdReservation;
  void finish(std::string id);

  const std::size_t recent_window_;
  std::mutex mu_;
  std::unordered_set<std::string> running_;
  std::unordered_set<std::string> recent_;
  std::deque<std::string> recent_order_;  // oldest first
};

}  // namespace codemode::internal

#endif  // CODEMODE_EXECUTOR_EXECUTION_REGISTRY_H_
