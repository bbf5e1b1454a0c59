// ReadSpin is the worker's side of the spin the session does before it sleeps (AdaptivePoll,
// src/sandbox/process/adaptive_poll.h): before the engine thread sleeps in read(2) for the parent's
// next frame (a tool's answer), it checks the pipe without sleeping for up to kSpinWindow. On a
// virtual machine the wake-up of a sleeping thread costs more than the wait for an instant tool's
// answer (docs/performance.md, "Round two").
//
// Adaptive, as AdaptivePoll is: it spins only when the previous wait ended within kSpinWindow,
// and a spin that runs out turns it off until a wait is short again, so a slow tool costs one
// window, not one per call. The spin yields the core at every check, and a spin that spent under
// half its time on the core (more runnable threads than cores: two executions on two cores) stops
// spinning for the next kContendedWaitsToSkip waits, where the spins would only slow the threads
// that do the work.
//
// The spin's CPU time is the worker's, not the program's: each spin reports the thread CPU time
// it spent to `credit` (the watchdog takes it off the program's cpuMillis). Once a process has
// spun max_credit in all, it spins no more, so the spins can never spend the RLIMIT_CPU backstop's
// margin above cpuMillis (protocol/cpu_backstop.h).
//
// The check is poll(2) with a zero timeout, which the worker's seccomp filter allows only with a
// zero timeout (src/confine/seccomp_policy.cc).
//
// Thread-safety: a plain value; one thread.
#ifndef CODEMODE_CORE_PROCESS_READ_SPIN_H_
#define CODEMODE_CORE_PROCESS_READ_SPIN_H_

#include <chrono>
#include <functional>

#include "core/time/time_source.h"

namespace codemode::internal {

class ReadSpin {
 public:
  static constexpr std::chrono::microseconds kSpinWindow{50};
  // At most this much CPU time spent spinning per process: 5% of the backstop's margin.
  static constexpr std::chrono::milliseconds kDefaultMaxCredit{250};
  // Waits that sleep at once after a spin found the core contended.
  static constexpr int kContendedWaitsToSkip = 64;

  using Credit = std::function<void(std::chrono::nanoseconds)>;

  // `clock` (which must outlive this) times the waits and the spins' CPU.
  explicit ReadSpin(Credit credit, std::chrono::nanoseconds max_credit = kDefaultMaxCredit,
                    const TimeSource& clock = TimeSource::real());

  // Before a read of `fd` that may sleep: if waits have been short, returns once `fd` is readable
  // (or has an error or hang-up, which the read then reports) or kSpinWindow has passed.
  void before_read(int fd);
  // After that read returned: a wait that ended within kSpinWindow turns the spin on.
  void after_read();

  // Whether the next before_read spins (tests).
  bool spinning() const { return spin_ && waits_to_skip_ == 0 && spent_ < max_credit_; }
  // CPU time credited so far.
  std::chrono::nanoseconds credited() const { return spent_; }

 private:
  Credit credit_;
  std::chrono::nanoseconds max_credit_;
  const TimeSource& clock_;
  std::chrono::nanoseconds spent_{0};
  std::chrono::steady_clock::time_point wait_start_{};
  int waits_to_skip_ = 0;
  bool spin_ = false;  // the first wait sleeps: nothing is known about the parent yet
};

}  // namespace codemode::internal

#endif  // CODEMODE_CORE_PROCESS_READ_SPIN_H_
