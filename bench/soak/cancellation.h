// Cancelling an execution while it runs. The soak cancels through the execution's stop_token, as a
// host would, but a stop requested before execute starts the worker would only test the early
// exit. So the stop is timed from inside the execution: the execution's broker arms a DelayedStop
// at its first tool call, and the stop lands a few milliseconds later, while the tool still waits
// (kDuringToolCall) or while the program computes after the answer (kAfterToolCall).
#ifndef CODEMODE_BENCH_SOAK_CANCELLATION_H_
#define CODEMODE_BENCH_SOAK_CANCELLATION_H_

#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <stop_token>
#include <thread>

#include "codemode/code_mode.h"

#include "soak/kinds.h"

namespace codemode::soak {

// Requests `target`'s stop `delay` after the first arm(). Destroying it before then requests
// nothing. Thread-safety: arm may be called from any thread.
class DelayedStop {
 public:
  DelayedStop(std::stop_source target, std::chrono::milliseconds delay);
  ~DelayedStop();  // stops waiting and joins its thread
  DelayedStop(const DelayedStop&) = delete;
  DelayedStop& operator=(const DelayedStop&) = delete;

  void arm();

 private:
  void wait_then_stop(std::stop_token own);

  std::stop_source target_;
  const std::chrono::milliseconds delay_;
  std::mutex mu_;
  std::condition_variable_any armed_changed_;
  bool armed_ = false;
  std::jthread thread_;  // last: it starts after, and is joined before, everything it uses
};

// How long after arming the stop lands: long enough that the worker is waiting or looping by
// then, well short of the cpu (200 ms) and wall (2 s) limits of the cancelled kinds.
inline constexpr std::chrono::milliseconds kCancelDelay{10};

// `inner`, wrapped to arm `stop` as `when` says. kNone returns `inner` unchanged.
// REQUIRES: `stop` outlives the returned broker's calls.
ToolBroker cancelling_broker(Cancellation when, ToolBroker inner, DelayedStop& stop);

}  // namespace codemode::soak

#endif  // CODEMODE_BENCH_SOAK_CANCELLATION_H_
