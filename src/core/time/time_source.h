// TimeSource is the time that codemode's logic reads: the monotonic clock and the calling thread's
// CPU time. Code whose decisions depend on how long something took (the adaptive spins before a
// sleep) reads it through a TimeSource, so that a test of those decisions runs on a clock it
// controls (tests/support/manual_time_source.h) instead of fighting a loaded machine; tests about
// timing itself keep the real one. Waits (condition variables, poll timeouts) still sleep on the
// real clock.
//
// Thread-safety: TimeSource::real() is immutable and may be used from any thread; an implementation
// says its own.
#ifndef CODEMODE_CORE_TIME_TIME_SOURCE_H_
#define CODEMODE_CORE_TIME_TIME_SOURCE_H_

#include <chrono>

namespace codemode::internal {

class TimeSource {
 public:
  virtual ~TimeSource() = default;

  // The monotonic clock (std::chrono::steady_clock's).
  virtual std::chrono::steady_clock::time_point now() const = 0;
  // The CPU time the calling thread has used (CLOCK_THREAD_CPUTIME_ID).
  virtual std::chrono::nanoseconds thread_cpu_time() const = 0;

  // The machine's clocks. Lives as long as the process.
  static const TimeSource& real();
};

}  // namespace codemode::internal

#endif  // CODEMODE_CORE_TIME_TIME_SOURCE_H_
