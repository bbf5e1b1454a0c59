// The CPU watchdog: a thread that reads the engine thread's CPU clock (by its kernel thread id)
// and, once the program's cpuMillis are spent, calls on_cpu_exhausted (which asks the engine to
// stop uncatchably). CPU time of one thread cannot advance faster than wall time, so the watchdog
// sleeps min(remaining, 10 ms) of wall time between reads; the stop lands within about that.
// Time the worker spends for itself on the engine thread (its spin before a tool's answer,
// core/read_spin.h) is credited back and does not count; a check that falls inside a spin, before
// its credit, can end a program that was within that spin (at most 50 µs) of its budget.
//
// It also bounds wall time as a backstop: the parent kills the worker at wallTimeMillis; if the
// worker is still alive kWallGrace later, the watchdog ends the process itself.
//
// The thread must exist before confinement (the filter forbids creating threads).
// Thread-safety: arm and the destructor are called from the engine thread.
#ifndef CODEMODE_WORKER_WATCHDOG_H_
#define CODEMODE_WORKER_WATCHDOG_H_

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>

#include <time.h>

#include "codemode/error.h"

#include "worker/thread.h"

namespace codemode::worker {

class Watchdog {
 public:
  using Milliseconds = std::chrono::milliseconds;
  static constexpr Milliseconds kWallGrace{1000};

  // Starts the watchdog thread for the CPU clock of the calling thread (the engine thread), and
  // returns once it is created. on_cpu_exhausted runs at most once, on the watchdog thread.
  // REQUIRES: the calling thread stays alive as long as the watchdog.
  static Result<std::unique_ptr<Watchdog>> start_for_calling_thread(
      std::function<void()> on_cpu_exhausted);
  ~Watchdog();

  // Returns once the watchdog thread runs. REQUIRES: before the filter.
  void wait_until_running() { thread_.wait_until_running(); }

  // Starts counting: `cpu` of the target's CPU time from now, and `wall` of wall time.
  void arm(Milliseconds cpu, Milliseconds wall);

  // Takes `spent` of the target's CPU time off what the program has used: time the worker spent
  // for itself on the engine thread (waiting for a tool's answer, core/read_spin.h). Any thread.
  void credit(std::chrono::nanoseconds spent) {
    credit_ns_.fetch_add(spent.count(), std::memory_order_relaxed);
  }

 private:
  struct Budget {
    std::chrono::nanoseconds cpu_deadline;  // on the target's CPU clock
    std::chrono::steady_clock::time_point wall_deadline;
  };

  Watchdog(clockid_t clock, std::function<void()> on_cpu_exhausted);
  void run();
  // The target's CPU time less what was credited.
  std::chrono::nanoseconds cpu_now() const;
  // Sleeps until the next check is due; false once asked to quit.
  bool wait_for_check(std::unique_lock<std::mutex>& lock);

  const clockid_t clock_;
  const std::function<void()> on_cpu_exhausted_;
  std::mutex mu_;
  std::condition_variable wake_;
  std::optional<Budget> budget_;
  bool quit_ = false;
  std::atomic<std::int64_t> credit_ns_{0};
  Thread thread_;  // last: joined before the members above are destroyed
};

}  // namespace codemode::worker

#endif  // CODEMODE_WORKER_WATCHDOG_H_
