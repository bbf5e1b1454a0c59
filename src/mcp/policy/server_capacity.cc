#include "mcp/policy/server_capacity.h"

#include <chrono>

namespace codemode::mcp {
namespace {

// How often a queued host operation looks at its stop token.
constexpr std::chrono::milliseconds kQueuePoll{20};

}  // namespace

std::shared_ptr<ServerCapacity> ServerCapacity::create(const McpPolicy& policy) {
  return std::shared_ptr<ServerCapacity>(new ServerCapacity(policy));
}

ServerCapacity::ServerCapacity(const McpPolicy& policy)
    : invocations_{.max = policy.server_invocations},
      workers_{.max = policy.server_workers},
      host_operations_(static_cast<std::ptrdiff_t>(policy.server_host_operations)) {}

std::shared_ptr<ServerCapacity::Slot> ServerCapacity::try_start_invocation() {
  return try_take(invocations_);
}

std::shared_ptr<ServerCapacity::Slot> ServerCapacity::try_start_worker() {
  return try_take(workers_);
}

std::shared_ptr<ServerCapacity::Slot> ServerCapacity::try_take(Count& count) {
  {
    std::lock_guard lock(mu_);
    if (count.in_use >= count.max) return nullptr;
    ++count.in_use;
  }
  try {
    return std::make_shared<Slot>(shared_from_this(), count);
  } catch (...) {
    give_back(count);
    return nullptr;
  }
}

void ServerCapacity::give_back(Count& count) {
  std::lock_guard lock(mu_);
  --count.in_use;
}

std::unique_ptr<ServerCapacity::HostOperation> ServerCapacity::wait_for_host_operation(
    const std::stop_token& stop) {
  while (!host_operations_.try_acquire_for(kQueuePoll)) {
    if (stop.stop_requested()) return nullptr;
  }
  try {
    return std::make_unique<HostOperation>(shared_from_this());
  } catch (...) {
    host_operations_.release();
    return nullptr;
  }
}

}  // namespace codemode::mcp
