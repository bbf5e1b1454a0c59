#include "sandbox/process/worker_launcher.h"

#include <optional>
#include <utility>

#include "sandbox/process/isolation_spawn.h"

namespace codemode::internal {
namespace {

std::vector<std::string> worker_argv(const std::string& worker_path, IsolationProfile isolation,
                                     EngineProfile engine) {
  std::vector<std::string> argv{worker_path};
  for (std::string& flag : worker_profile_flags(isolation, engine)) argv.push_back(std::move(flag));
  return argv;
}

class ExecWorkerLauncher final : public WorkerLauncher {
 public:
  ExecWorkerLauncher(std::string worker_path, EngineProfile engine)
      : options_{.path = worker_path,
                 .argv = worker_argv(worker_path, IsolationProfile::kProcess, engine),
                 .env = {}} {}

  Result<WorkerProcess> launch() override { return spawn_child(options_); }

 private:
  const SpawnOptions options_;  // env empty: the worker inherits no variable of the host's
};

// The isolated profile's exec launcher: the same worker, created in new namespaces by clone(2)
// (posix_spawn cannot), then told with --isolated to empty its root once its files are loaded.
class IsolatedExecWorkerLauncher final : public WorkerLauncher {
 public:
  IsolatedExecWorkerLauncher(std::string worker_path, EngineProfile engine)
      : path_(std::move(worker_path)),
        argv_(worker_argv(path_, IsolationProfile::kIsolated, engine)) {}

  Result<WorkerProcess> launch() override {
    std::optional<StdioPipes> pipes = make_stdio_pipes();
    if (!pipes) {
      return Error::tool_failed("spawn_failed", "A child process could not be started.");
    }
    Result<ChildProcess> child =
        spawn_in_namespaces({.path = path_,
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

std::vector<std::string> worker_profile_flags(IsolationProfile isolation, EngineProfile engine) {
  std::vector<std::string> flags;
  if (isolation == IsolationProfile::kIsolated) flags.push_back("--isolated");
  if (engine == EngineProfile::kJit) flags.push_back("--jit");
  return flags;
}

std::unique_ptr<WorkerLauncher> make_exec_launcher(std::string worker_path,
                                                   IsolationProfile isolation,
                                                   EngineProfile engine) {
  if (isolation == IsolationProfile::kIsolated) {
    return std::make_unique<IsolatedExecWorkerLauncher>(std::move(worker_path), engine);
  }
  return std::make_unique<ExecWorkerLauncher>(std::move(worker_path), engine);
}

}  // namespace codemode::internal
