#include "sandbox/process/worker_process.h"

namespace codemode::internal {
namespace {

// The kernel compares its tick-sampled CPU time with RLIMIT_CPU, while wait4 reports the exact
// runtime: a worker the backstop ended showed 10-12 ms less (measured, 2 loaded cores). A second
// of slack is far more than that and still means cpuMillis + 4 s of CPU used, which no program
// the watchdog stopped can have used.
constexpr std::int64_t kCpuTimeSlackMicros = 1'000'000;

bool reached_cpu_backstop(const EarlyEnd& end) {
  if (!end.status || end.cpu_backstop_seconds == 0) return false;
  const auto limit_micros = static_cast<std::int64_t>(end.cpu_backstop_seconds) * 1'000'000;
  return end.status->cpu_micros + kCpuTimeSlackMicros >= limit_micros;
}

}  // namespace

SandboxResult result_of_early_end(const EarlyEnd& end) {
  if (reached_cpu_backstop(end)) return SandboxResult::failure(SandboxFailureReason::kCpuLimit);
  const bool killed = end.status && end.status->signal;
  if (!killed && end.mid_frame) return SandboxResult::failure(SandboxFault::kWorkerProtocolError);
  if (!end.confined) return SandboxResult::failure(SandboxFault::kWorkerStartFailed);
  return SandboxResult::failure(SandboxFault::kWorkerExited);
}

}  // namespace codemode::internal
