#include "sandbox/worker_launcher.h"

#include <utility>

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

}  // namespace

std::unique_ptr<WorkerLauncher> make_exec_launcher(std::string worker_path) {
  return std::make_unique<ExecWorkerLauncher>(std::move(worker_path));
}

}  // namespace codemode::internal
