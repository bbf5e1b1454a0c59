// A TimeSource a test controls (src/core/time/time_source.h): time moves only when the test moves
// it, or by a fixed step at every reading, so that a loop that runs "until the window has passed"
// ends after a known number of readings whatever the machine's load.
#ifndef CODEMODE_TESTS_SUPPORT_MANUAL_TIME_SOURCE_H_
#define CODEMODE_TESTS_SUPPORT_MANUAL_TIME_SOURCE_H_

#include <chrono>

#include "core/time/time_source.h"

namespace codemode::testing {

// Thread-safety: one thread (the test's).
class ManualTimeSource final : public internal::TimeSource {
 public:
  std::chrono::steady_clock::time_point now() const override {
    const std::chrono::steady_clock::time_point reading = now_;
    now_ += wall_step_;
    cpu_ += cpu_step_;
    return reading;
  }
  std::chrono::nanoseconds thread_cpu_time() const override { return cpu_; }

  // Moves the wall clock, and the calling thread's CPU time by `cpu`.
  void advance(std::chrono::nanoseconds wall, std::chrono::nanoseconds cpu = {}) {
    now_ += wall;
    cpu_ += cpu;
  }
  // From now on every reading of now() moves the wall clock by `wall` and the CPU time by `cpu`
  // after it is read: a thread that spins on the clock on its core (cpu == wall), or one that is
  // mostly off its core (cpu < wall).
  void step_every_reading(std::chrono::nanoseconds wall, std::chrono::nanoseconds cpu) {
    wall_step_ = wall;
    cpu_step_ = cpu;
  }

 private:
  mutable std::chrono::steady_clock::time_point now_{std::chrono::hours(1)};
  mutable std::chrono::nanoseconds cpu_{0};
  std::chrono::nanoseconds wall_step_{0};
  std::chrono::nanoseconds cpu_step_{0};
};

}  // namespace codemode::testing

#endif  // CODEMODE_TESTS_SUPPORT_MANUAL_TIME_SOURCE_H_
