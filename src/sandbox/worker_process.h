// WorkerProcess is one running codemode-worker: the parent's ends of its stdin, stdout and stderr
// pipes and the process itself. Destroying it kills the worker with SIGKILL, reaps it, then closes
// the pipes (core/child_process.h), so every path out of an execution leaves no zombie, no orphan
// and no fd.
#ifndef CODEMODE_SANDBOX_WORKER_PROCESS_H_
#define CODEMODE_SANDBOX_WORKER_PROCESS_H_

#include "codemode/sandbox.h"
#include "core/child_process.h"

namespace codemode::internal {

using WorkerProcess = SpawnedChild;

// Why a worker that ended before sending its result failed, from how it ended. A worker killed
// by SIGXCPU hit the RLIMIT_CPU backstop (its watchdog missed the cpuMillis limit): cpu_limit.
// Anything else, SIGSYS from the seccomp filter included, is sandbox_error.
SandboxFailureReason reason_for_early_exit(const std::optional<ExitStatus>& status);

}  // namespace codemode::internal

#endif  // CODEMODE_SANDBOX_WORKER_PROCESS_H_
