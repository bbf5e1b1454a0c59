#include "sandbox/worker_process.h"

namespace codemode::internal {
namespace {

// wait4 truncates user and system time to whole microseconds each, where the kernel compared
// their exact sum with the limit: a worker the backstop ended may show a few microseconds less.
constexpr std::int64_t kCpuTimeSlackMicros = 1000;

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
