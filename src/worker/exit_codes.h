// How codemode-worker exits. The parent reads the result frame, not the status; the status tells
// apart a worker that ran to an outcome from one that failed or was stopped.
#ifndef CODEMODE_WORKER_EXIT_CODES_H_
#define CODEMODE_WORKER_EXIT_CODES_H_

namespace codemode::worker {

enum ExitCode : int {
  kExitCompleted = 0,     // a result frame was written; the program ran to an outcome
  kExitSandboxError = 1,  // the worker failed (protocol, confinement, engine); reported if it could
  kExitUsage = 2,         // wrong command line
  kExitWallTime = 3,      // still alive a grace period after wallTimeMillis: the watchdog ended it
  // Sanitizer builds only (sanitizer_runtime.h): AddressSanitizer or UndefinedBehaviorSanitizer
  // found a bug in the worker, wrote its report to fd 2 and ended the process.
  kExitSanitizerReport = 4,
  // The isolated worker (pid 1 of its pid namespace, which ignores RLIMIT_CPU's SIGXCPU by
  // default) caught SIGXCPU: the RLIMIT_CPU backstop. For people reading a status: the parent
  // does not believe it (any exit can claim it) and looks at the worker's CPU time instead.
  kExitCpuBackstop = 5,
};

}  // namespace codemode::worker

#endif  // CODEMODE_WORKER_EXIT_CODES_H_
