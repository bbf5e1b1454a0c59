#include "sandbox/worker_process.h"

#include <signal.h>

namespace codemode::internal {

SandboxResult result_of_early_end(const EarlyEnd& end) {
  const bool killed = end.status && end.status->signal;
  const bool cpu_backstop = end.status && end.status->exit_code == kWorkerCpuBackstopExitCode;
  if ((killed && *end.status->signal == SIGXCPU) || cpu_backstop) {
    return SandboxResult::failure(SandboxFailureReason::kCpuLimit);
  }
  if (!killed && end.mid_frame) return SandboxResult::failure(SandboxFault::kWorkerProtocolError);
  if (!end.confined) return SandboxResult::failure(SandboxFault::kWorkerStartFailed);
  return SandboxResult::failure(SandboxFault::kWorkerExited);
}

}  // namespace codemode::internal
