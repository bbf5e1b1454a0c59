// WorkerLauncher starts one fresh codemode-worker per execution. The exec launcher here runs the
// worker binary each time; the fork-server launcher (fork_server_launcher.h: one pre-initialised
// zygote forking a child per execution, docs/worker.md) is the other implementation.
//
// Thread-safety: launch may be called from many threads at once.
#ifndef CODEMODE_SANDBOX_PROCESS_WORKER_LAUNCHER_H_
#define CODEMODE_SANDBOX_PROCESS_WORKER_LAUNCHER_H_

#include <memory>
#include <string>
#include <vector>

#include "codemode/error.h"
#include "codemode/process_adapter.h"

#include "sandbox/process/worker_process.h"

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
// For the isolated profile argv adds "--isolated" and the worker starts in new user, pid,
// network, mount, IPC and UTS namespaces (isolation_spawn.h); for the JIT engine profile argv
// adds "--jit".
std::unique_ptr<WorkerLauncher> make_exec_launcher(
    std::string worker_path, IsolationProfile isolation = IsolationProfile::kProcess,
    EngineProfile engine = EngineProfile::kInterpreter);

// The worker's flags for `isolation` and `engine`, after argv[0] and the mode flag if any.
std::vector<std::string> worker_profile_flags(IsolationProfile isolation, EngineProfile engine);

}  // namespace codemode::internal

#endif  // CODEMODE_SANDBOX_PROCESS_WORKER_LAUNCHER_H_
