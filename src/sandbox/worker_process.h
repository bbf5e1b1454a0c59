// WorkerProcess is one running codemode-worker: the parent's ends of its stdin, stdout and stderr
// pipes and the process itself. Destroying it kills the worker with SIGKILL, reaps it, then closes
// the pipes (core/child_process.h), so every path out of an execution leaves no zombie, no orphan
// and no fd.
#ifndef CODEMODE_SANDBOX_WORKER_PROCESS_H_
#define CODEMODE_SANDBOX_WORKER_PROCESS_H_

#include <optional>

#include "codemode/sandbox.h"
#include "core/child_process.h"

namespace codemode::internal {

using WorkerProcess = SpawnedChild;

// What the parent knows about a worker whose stdout ended before its result frame.
struct EarlyEnd {
  std::optional<ExitStatus> status;  // nullopt: it could not be reaped
  bool confined = false;             // its confined frame had arrived
  bool mid_frame = false;            // stdout ended inside a frame
};

// The exit status of a worker that caught RLIMIT_CPU's SIGXCPU (src/worker/exit_codes.h
// kExitCpuBackstop): the isolated worker is pid 1 of its pid namespace, where SIGXCPU at its
// default action is ignored, so it catches it and exits with this status.
inline constexpr int kWorkerCpuBackstopExitCode = 5;

// Why such a worker failed, as a flat list of decisions:
//   killed by SIGXCPU, or exited with kWorkerCpuBackstopExitCode: it hit the RLIMIT_CPU backstop
//   (its watchdog missed cpuMillis): cpu_limit;
//   exited on its own inside a frame: worker_protocol_error (a truncated frame);
//   ended before its confined frame: worker_start_failed;
//   anything else (a signal, SIGSYS from the filter included, or an exit): worker_exited.
SandboxResult result_of_early_end(const EarlyEnd& end);

}  // namespace codemode::internal

#endif  // CODEMODE_SANDBOX_WORKER_PROCESS_H_
