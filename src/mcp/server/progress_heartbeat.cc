#include "mcp/server/progress_heartbeat.h"

#include <utility>

#include "mcp/transport/json_rpc.h"

namespace codemode::mcp {

ProgressHeartbeat::ProgressHeartbeat(std::function<void(const Json&)> send, Json token,
                                     std::chrono::milliseconds interval)
    : send_(std::move(send)),
      token_(std::move(token)),
      interval_(interval),
      thread_([this](std::stop_token stop) { run(std::move(stop)); }) {}

ProgressHeartbeat::~ProgressHeartbeat() {
  thread_.request_stop();
  thread_.join();
  std::chrono::steady_clock::time_point last;
  {
    std::lock_guard lock(mu_);
    last = last_sent_;
  }
  const auto quiet_until = last + kQuietGap;
  if (std::chrono::steady_clock::now() < quiet_until) std::this_thread::sleep_until(quiet_until);
}

void ProgressHeartbeat::run(std::stop_token stop) {
  std::unique_lock lock(mu_);
  for (int progress = 1;; ++progress) {
    if (wake_.wait_for(lock, stop, interval_, [] { return false; }) || stop.stop_requested()) {
      return;
    }
    lock.unlock();
    send_(rpc_notification("notifications/progress",
                           {{"progressToken", token_}, {"progress", progress}}));
    lock.lock();
    last_sent_ = std::chrono::steady_clock::now();
  }
}

}  // namespace codemode::mcp
