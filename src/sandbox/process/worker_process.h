// WorkerProcess is one running codemode-worker: the parent's ends of its stdin, stdout and stderr
// pipes and the process itself. Destroying it kills the worker with SIGKILL, reaps it, then closes
// the pipes (core/child_process.h), so every path out of an execution leaves no zombie, no orphan
// and no fd.
#ifndef CODEMODE_SANDBOX_PROCESS_WORKER_PROCESS_H_
#define CODEMODE_SANDBOX_PROCESS_WORKER_PROCESS_H_

#include <cstdint>
#include <optional>

#include "codemode/sandbox.h"

#include "core/process/child_process.h"
#include "protocol/cpu_backstop.h"

namespace codemode::internal {

using WorkerProcess = SpawnedChild;

// What the parent knows about a worker whose stdout ended before its result frame.
struct EarlyEnd {
  std::optional<ExitStatus> status;        // nullopt: it could not be reaped
  bool confined = false;                   // its confined frame had arrived
  bool mid_frame = false;                  // stdout ended inside a frame
  std::uint64_t cpu_backstop_seconds = 0;  // the RLIMIT_CPU soft limit its program was given
};

// Why such a worker failed, as a flat list of decisions:
//   its CPU time (wait4) came within a second of the RLIMIT_CPU soft limit (the kernel's own
//   count is tick-sampled, so it can be a little more): it hit the backstop (its watchdog
//   missed cpuMillis), whichever way it then ended (SIGXCPU, the hard limit's SIGKILL, or the
//   isolated worker's own exit on SIGXCPU): cpu_limit. Neither the signal nor an exit status is
//   believed alone: a crash, or an escaped worker calling exit, can show either;
//   exited on its own inside a frame: worker_protocol_error (a truncated frame);
//   ended before its confined frame: worker_start_failed;
//   anything else (a signal, SIGSYS from the filter included, or an exit): worker_exited.
SandboxResult result_of_early_end(const EarlyEnd& end);

}  // namespace codemode::internal

#endif  // CODEMODE_SANDBOX_PROCESS_WORKER_PROCESS_H_
