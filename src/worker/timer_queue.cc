#include "worker/timer_queue.h"

namespace codemode::worker {

bool TimerQueue::schedule(std::uint64_t id, std::chrono::milliseconds delay,
                          Clock::time_point now) {
  cancel(id);
  if (by_due_.size() >= kMaxPending) return false;
  const Key key{now + delay, ++scheduled_};
  by_due_.emplace(key, id);
  by_id_.emplace(id, key);
  return true;
}

void TimerQueue::cancel(std::uint64_t id) {
  const auto found = by_id_.find(id);
  if (found == by_id_.end()) return;
  by_due_.erase(found->second);
  by_id_.erase(found);
}

std::optional<TimerQueue::Clock::time_point> TimerQueue::next_due() const {
  if (by_due_.empty()) return std::nullopt;
  return by_due_.begin()->first.first;
}

std::optional<std::uint64_t> TimerQueue::take_due(Clock::time_point now) {
  if (by_due_.empty() || by_due_.begin()->first.first > now) return std::nullopt;
  const std::uint64_t id = by_due_.begin()->second;
  by_id_.erase(id);
  by_due_.erase(by_due_.begin());
  return id;
}

}  // namespace codemode::worker
