#include "mcp/policy/server_capacity.h"

#include <algorithm>
#include <chrono>

#include "codemode/rules.h"

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
      host_operations_(static_cast<std::ptrdiff_t>(policy.server_host_operations)),
      host_operation_wait_(policy.server_host_operation_wait_millis) {}

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

Result<std::unique_ptr<ServerCapacity::HostOperation>> ServerCapacity::wait_for_host_operation(
    const std::stop_token& stop) {
  using Clock = std::chrono::steady_clock;
  const Clock::time_point deadline = Clock::now() + host_operation_wait_;
  while (!host_operations_.try_acquire_until(std::min(Clock::now() + kQueuePoll, deadline))) {
    if (stop.stop_requested()) {
      return Error::cancelled(rules::kCancelled, "The call was cancelled before it started.");
    }
    if (Clock::now() >= deadline) {
      return Error::limit_exceeded(rules::kServerHostOperationsLimit,
                                   "server host-operation capacity is exhausted");
    }
  }
  try {
    return std::make_unique<HostOperation>(shared_from_this());
  } catch (...) {
    host_operations_.release();  // out of memory: the unit goes back, the call does not start
    return Error::tool_failed(rules::kInternalError, "The call failed inside the server.");
  }
}

}  // namespace codemode::mcp
