#include "sandbox/worker_process.h"

#include <signal.h>

namespace codemode::internal {

SandboxResult result_of_early_end(const EarlyEnd& end) {
  const bool killed = end.status && end.status->signal;
  if (killed && *end.status->signal == SIGXCPU) {
    return SandboxResult::failure(SandboxFailureReason::kCpuLimit);
  }
  if (!killed && end.mid_frame) return SandboxResult::failure(SandboxFault::kWorkerProtocolError);
  if (!end.confined) return SandboxResult::failure(SandboxFault::kWorkerStartFailed);
  return SandboxResult::failure(SandboxFault::kWorkerExited);
}

}  // namespace codemode::internal
