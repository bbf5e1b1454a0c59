#include "mcp/server_capacity.h"

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
    : max_invocations_(policy.server_invocations),
      host_operations_(static_cast<std::ptrdiff_t>(policy.server_host_operations)) {}

std::shared_ptr<ServerCapacity::Invocation> ServerCapacity::try_start_invocation() {
  {
    std::lock_guard lock(mu_);
    if (invocations_ >= max_invocations_) return nullptr;
    ++invocations_;
  }
  try {
    return std::make_shared<Invocation>(shared_from_this());
  } catch (...) {
    end_invocation();
    return nullptr;
  }
}

void ServerCapacity::end_invocation() {
  std::lock_guard lock(mu_);
  --invocations_;
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
