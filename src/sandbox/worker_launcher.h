// WorkerLauncher starts one fresh codemode-worker per execution. The exec launcher here runs the
// worker binary each time; a fork-server launcher (one pre-initialised zygote forking a child per
// execution, DESIGN.md "Process model") fits behind the same interface.
//
// Thread-safety: launch may be called from many threads at once.
#ifndef CODEMODE_SANDBOX_WORKER_LAUNCHER_H_
#define CODEMODE_SANDBOX_WORKER_LAUNCHER_H_

#include <memory>
#include <string>

#include "codemode/error.h"
#include "sandbox/worker_process.h"

namespace codemode::internal {

class WorkerLauncher {
 public:
  virtual ~WorkerLauncher() = default;
  // A running worker whose stdin, stdout and stderr are pipes to the caller, or the reason none
  // could be started (nothing is left running then).
  virtual Result<WorkerProcess> launch() = 0;
};

// Executes `worker_path` (absolute) for every launch, with argv {worker_path}, an EMPTY
// environment, fds 0, 1 and 2 on the pipes, every other fd closed and default signal handling.
std::unique_ptr<WorkerLauncher> make_exec_launcher(std::string worker_path);

}  // namespace codemode::internal

#endif  // CODEMODE_SANDBOX_WORKER_LAUNCHER_H_
