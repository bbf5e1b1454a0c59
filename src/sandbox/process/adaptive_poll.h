// AdaptivePoll is poll(2) that, while its fds have been answering quickly, checks them without
// sleeping for a short while before it sleeps. A session waiting for the worker's next tool call
// would otherwise sleep for the twenty-odd microseconds the worker needs, and being woken costs
// both sides more than that wait on a virtual machine (docs/performance.md, "Call path"): the
// writer's wake-up of a sleeping thread and the sleeper's switch back in.
//
// The spin is adaptive, as an adaptive mutex is: it happens only when the previous wait ended
// within kSpinWindow, and a spin that runs out turns it off until a wait is short again. So a
// worker that computes, a slow tool, or two sessions contending for the cores (the worker then
// cannot run while its session spins) costs one spin window, not one per wait.
//
// Thread-safety: a plain value; one thread.
#ifndef CODEMODE_SANDBOX_PROCESS_ADAPTIVE_POLL_H_
#define CODEMODE_SANDBOX_PROCESS_ADAPTIVE_POLL_H_

#include <chrono>
#include <span>

#include <poll.h>

#include "core/time/time_source.h"

namespace codemode::internal {

class AdaptivePoll {
 public:
  static constexpr std::chrono::microseconds kSpinWindow{50};

  // `clock` (which must outlive this) times the waits.
  explicit AdaptivePoll(const TimeSource& clock = TimeSource::real()) : clock_(clock) {}

  // poll(fds, timeout_millis), spinning first when waits have been short. Only an unbounded wait
  // (timeout_millis < 0) spins; a bounded one is a plain poll. Returns what poll returns.
  int wait(std::span<pollfd> fds, int timeout_millis);

  // Whether the next unbounded wait spins first (tests).
  bool spinning() const { return spin_; }

 private:
  const TimeSource& clock_;
  bool spin_ = false;  // the first wait sleeps: nothing is known about the peer yet
};

}  // namespace codemode::internal

#endif  // CODEMODE_SANDBOX_PROCESS_ADAPTIVE_POLL_H_
