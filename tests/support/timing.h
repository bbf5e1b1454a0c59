// The one slack factor for a test's own expectations of how long something may take.
//
// An upper bound a test puts on a duration it measured ("ended within 2 s", "refused in under
// 1 s"), or the deadline of a wait whose expiry fails the test, is written as slack(bound): the
// bound times a factor that is 1 in a release build, kSanitizerTimeScale in a sanitizer build
// (CODEMODE_SANITIZE=ON, which defines CODEMODE_SANITIZER_BUILD: ASan and UBSan slow codemode's
// own code several times over), or whatever the environment variable CODEMODE_TEST_TIME_SCALE
// says (a number >= 1, e.g. 4 on a machine shared with builds; it replaces the build's factor).
//
// Not scaled:
//   - lower bounds ("took at least 200 ms"): a slow machine only makes them easier to meet;
//   - timeouts given to the code under test that are meant to fire (a tool's timeoutMs, a
//     program's wallTimeMillis): the test is about them, and scaling them would change what runs;
//   - short waits that check something does *not* happen ("no answer within 100 ms"): a slow
//     machine can only make them pass more easily.
// Where a test can wait for the event itself (a future, a condition, a stop token, a process
// state) it does so, with a slack deadline only so that a failure ends instead of hanging.
#ifndef CODEMODE_TESTS_SUPPORT_TIMING_H_
#define CODEMODE_TESTS_SUPPORT_TIMING_H_

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "core/sanitizer_build.h"

namespace codemode::testing {

// The factor of a sanitizer build when CODEMODE_TEST_TIME_SCALE is not set.
inline constexpr double kSanitizerTimeScale = 3.0;

// The factor in force: CODEMODE_TEST_TIME_SCALE when it is a number >= 1, else the build's. Read
// once; a value that is not such a number is reported on stderr and ignored.
inline double time_scale() {
  static const double scale = [] {
    const double build = internal::kSanitizerBuild ? kSanitizerTimeScale : 1.0;
    const char* text = std::getenv("CODEMODE_TEST_TIME_SCALE");
    if (text == nullptr || *text == '\0') return build;
    char* end = nullptr;
    const double value = std::strtod(text, &end);
    if (end == text || *end != '\0' || !std::isfinite(value) || value < 1.0) {
      std::fprintf(stderr,
                   "CODEMODE_TEST_TIME_SCALE=%s is not a number >= 1; using the build's %g\n", text,
                   build);
      return build;
    }
    return value;
  }();
  return scale;
}

// `bound` times time_scale(), in milliseconds (rounded up).
template <class Rep, class Period>
std::chrono::milliseconds slack(std::chrono::duration<Rep, Period> bound) {
  const double millis = std::chrono::duration<double, std::milli>(bound).count() * time_scale();
  return std::chrono::milliseconds(static_cast<std::chrono::milliseconds::rep>(std::ceil(millis)));
}

}  // namespace codemode::testing

#endif  // CODEMODE_TESTS_SUPPORT_TIMING_H_
