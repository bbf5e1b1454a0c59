#include "sandbox/worker_process.h"

#include <signal.h>

namespace codemode::internal {

SandboxFailureReason reason_for_early_exit(const std::optional<ExitStatus>& status) {
  if (status && status->signal == SIGXCPU) return SandboxFailureReason::kCpuLimit;
  return SandboxFailureReason::kSandboxError;
}

}  // namespace codemode::internal
