// run_soak: the whole measurement, as its steps in order (private TMPDIR, plan, warm-up, figures,
// the rest of the plan, figures again, teardown, census, report).
#ifndef CODEMODE_BENCH_SOAK_SOAK_H_
#define CODEMODE_BENCH_SOAK_SOAK_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "soak/runner.h"

namespace codemode::soak {

struct SoakOptions {
  std::size_t executions = 10'000;
  int concurrency = 2;
  std::uint64_t seed = 1;
  std::string json_path;  // empty: no JSON report
  WorkerPaths workers;
};

// Executions before the "after warm-up" figures are read (fewer if the soak is shorter).
inline constexpr std::size_t kWarmupExecutions = 100;

inline constexpr int kExitPassed = 0;
inline constexpr int kExitFailed = 1;  // an unexpected outcome or a leak
inline constexpr int kExitError = 2;   // the soak could not run (or write its JSON)

// Runs the soak, prints its report to stdout, and returns the exit status.
// REQUIRES: called before this process starts any thread (it sets TMPDIR).
int run_soak(const SoakOptions& options);

}  // namespace codemode::soak

#endif  // CODEMODE_BENCH_SOAK_SOAK_H_
