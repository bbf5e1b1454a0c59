// The model profile's pending timers (setTimeout and setInterval): which timer id is due when, on
// the monotonic clock. The engine asks for the earliest due time, and the worker waits for the
// parent's next frame no longer than that (FrameChannel::read_until).
//
// Thread-safety: a plain value; the engine thread only.
#ifndef CODEMODE_WORKER_TIMER_QUEUE_H_
#define CODEMODE_WORKER_TIMER_QUEUE_H_

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <unordered_map>
#include <utility>

namespace codemode::worker {

class TimerQueue {
 public:
  using Clock = std::chrono::steady_clock;

  // Most timers pending at once; schedule refuses more (the program gets a RangeError).
  static constexpr std::size_t kMaxPending = 10'000;

  // Makes `id` due `delay` from `now`, replacing an earlier schedule of the same id. Timers due at
  // the same time fire in the order they were scheduled. False when kMaxPending are pending.
  bool schedule(std::uint64_t id, std::chrono::milliseconds delay, Clock::time_point now);
  void cancel(std::uint64_t id);

  // The earliest due time, or nullopt when nothing is pending.
  std::optional<Clock::time_point> next_due() const;
  // Removes and returns the earliest timer due at or before `now`.
  std::optional<std::uint64_t> take_due(Clock::time_point now);

  bool empty() const { return by_due_.empty(); }

 private:
  using Key = std::pair<Clock::time_point, std::uint64_t>;  // (due, order of scheduling)
  std::map<Key, std::uint64_t> by_due_;                     // -> timer id
  std::unordered_map<std::uint64_t, Key> by_id_;
  std::uint64_t scheduled_ = 0;
};

}  // namespace codemode::worker

#endif  // CODEMODE_WORKER_TIMER_QUEUE_H_
