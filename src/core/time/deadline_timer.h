// DeadlineTimer runs callbacks at deadlines on one process-wide timer thread, so a wall-clock limit
// (an execution's wallTimeMillis, a tool's timeout) costs no thread of its own.
//
// Ownership: schedule returns a TimerHandle; destroying or cancelling the handle removes the
// callback, and if the callback is running at that moment, waits for it to finish. So a callback
// may safely refer to state that outlives its handle. Callbacks must be short and must not destroy
// their own handle.
//
// Thread-safety: all functions are thread-safe.
#ifndef CODEMODE_CORE_TIME_DEADLINE_TIMER_H_
#define CODEMODE_CORE_TIME_DEADLINE_TIMER_H_

#include <chrono>
#include <cstdint>
#include <functional>

namespace codemode::internal {

class TimerHandle {
 public:
  TimerHandle() = default;
  TimerHandle(TimerHandle&& other) noexcept;
  TimerHandle& operator=(TimerHandle&& other) noexcept;
  TimerHandle(const TimerHandle&) = delete;
  TimerHandle& operator=(const TimerHandle&) = delete;
  ~TimerHandle() { cancel(); }

  // Removes the callback; waits if it is running now. Idempotent.
  void cancel();

 private:
  friend class DeadlineTimer;
  explicit TimerHandle(std::uint64_t id) : id_(id) {}
  std::uint64_t id_ = 0;  // 0: nothing scheduled
};

class DeadlineTimer {
 public:
  using Clock = std::chrono::steady_clock;

  // Runs `callback` once on the timer thread at `deadline` (at once if it has passed), unless the
  // returned handle is cancelled or destroyed first.
  static TimerHandle schedule(Clock::time_point deadline, std::function<void()> callback);
};

}  // namespace codemode::internal

#endif  // CODEMODE_CORE_TIME_DEADLINE_TIMER_H_
