#include "core/time/time_source.h"

#include <time.h>

namespace codemode::internal {
namespace {

class RealTimeSource final : public TimeSource {
 public:
  std::chrono::steady_clock::time_point now() const override {
    return std::chrono::steady_clock::now();
  }
  std::chrono::nanoseconds thread_cpu_time() const override {
    timespec now{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    return std::chrono::seconds(now.tv_sec) + std::chrono::nanoseconds(now.tv_nsec);
  }
};

}  // namespace

const TimeSource& TimeSource::real() {
  static const RealTimeSource source;
  return source;
}

}  // namespace codemode::internal
