#include "sandbox/worker_launcher.h"

#include <optional>
#include <utility>

#include "sandbox/isolation_spawn.h"

namespace codemode::internal {
namespace {

class ExecWorkerLauncher final : public WorkerLauncher {
 public:
  explicit ExecWorkerLauncher(std::string worker_path)
      : options_{.path = worker_path, .argv = {worker_path}, .env = {}} {}

  Result<WorkerProcess> launch() override { return spawn_child(options_); }

 private:
  const SpawnOptions options_;  // env empty: the worker inherits no variable of the host's
};

// The isolated profile's exec launcher: the same worker, created in new namespaces by clone(2)
// (posix_spawn cannot), then told with --isolated to empty its root once its files are loaded.
class IsolatedExecWorkerLauncher final : public WorkerLauncher {
 public:
  explicit IsolatedExecWorkerLauncher(std::string worker_path)
      : path_(std::move(worker_path)), argv_{path_, "--isolated"} {}

  Result<WorkerProcess> launch() override {
    std::optional<StdioPipes> pipes = make_stdio_pipes();
    if (!pipes) {
      return Error{ErrorCode::kToolFailed, "spawn_failed", "A child process could not be started."};
    }
    Result<ChildProcess> child = spawn_in_namespaces(
        {.path = path_,
         .argv = argv_,
         .stdio = {pipes->child_ends[0].get(), pipes->child_ends[1].get(),
                   pipes->child_ends[2].get()},
         .namespaces = isolation_namespaces()});
    if (!child.ok()) return child.error();
    return WorkerProcess{.stdin_fd = std::move(pipes->stdin_fd),
                         .stdout_fd = std::move(pipes->stdout_fd),
                         .stderr_fd = std::move(pipes->stderr_fd),
                         .process = std::move(*child)};
  }

 private:
  const std::string path_;
  const std::vector<std::string> argv_;
};

}  // namespace

std::unique_ptr<WorkerLauncher> make_exec_launcher(std::string worker_path,
                                                   IsolationProfile isolation) {
  if (isolation == IsolationProfile::kIsolated) {
    return std::make_unique<IsolatedExecWorkerLauncher>(std::move(worker_path));
  }
  return std::make_unique<ExecWorkerLauncher>(std::move(worker_path));
}

}  // namespace codemode::internal
