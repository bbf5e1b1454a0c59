// The process adapter: one fresh, confined codemode-worker per execution (process_adapter.h).
#include <chrono>
#include <filesystem>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <errno.h>
#include <linux/seccomp.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "core/process/child_process.h"
#include "core/process/command_path.h"
#include "protocol/frame_format.h"
#include "sandbox/process/fork_server_launcher.h"
#include "sandbox/process/isolation_spawn.h"
#include "sandbox/process/process_adapter_impl.h"
#include "sandbox/process/worker_execution.h"
#include "sandbox/process/worker_location.h"

namespace codemode {
namespace internal {
namespace {

class ProcessAdapter final : public SandboxAdapter {
 public:
  ProcessAdapter(std::unique_ptr<WorkerLauncher> launcher, std::function<bool()> is_available,
                 IsolationProfile isolation, EngineProfile engine, std::int64_t stack_bytes)
      : launcher_(std::move(launcher)),
        probe_(std::move(is_available)),
        isolation_(isolation),
        engine_(engine),
        stack_bytes_(stack_bytes) {}

  // The JIT profile shows in the id, so a host that records or checks it sees the weaker engine.
  std::string id() const override {
    const std::string base =
        isolation_ == IsolationProfile::kIsolated ? "codemode.isolated" : "codemode.process";
    return engine_ == EngineProfile::kJit ? base + ".jit" : base;
  }
  std::string version() const override { return "1.0.0"; }
  AdapterQualification qualification() const override { return AdapterQualification::kProduction; }

  bool is_available() override {
    std::call_once(probed_, [this] { available_ = probe_(); });
    return available_;
  }

  SandboxResult execute(const SandboxRequest& request, ToolBridge& tools,
                        std::stop_token stop) override {
    return execute_in_worker(
        request, tools, std::move(stop), [this] { return launcher_->launch(); },
        confinement_layers(isolation_, engine_), stack_bytes_);
  }

 private:
  const std::unique_ptr<WorkerLauncher> launcher_;
  const std::function<bool()> probe_;
  const IsolationProfile isolation_;
  const EngineProfile engine_;
  const std::int64_t stack_bytes_;
  std::once_flag probed_;
  bool available_ = false;
};

}  // namespace

std::string absolute_worker_path(const std::string& requested) {
  const std::string path = requested.empty() ? default_worker_path() : requested;
  std::error_code error;
  std::filesystem::path absolute = std::filesystem::absolute(path, error);
  // On failure the path stays as given; is_available then reports whether it can be executed.
  return error ? path : absolute.lexically_normal().string();
}

bool kernel_supports_seccomp_filters() {
  const long status = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, nullptr);
  return status < 0 && errno == EFAULT;
}

bool worker_runs(const std::string& path, EngineProfile engine) {
  std::vector<std::string> argv{path, "--probe"};
  if (engine == EngineProfile::kJit) argv.push_back("--jit");
  Result<SpawnedChild> child = spawn_child(
      {.path = path, .argv = std::move(argv), .stderr_mode = SpawnOptions::Stderr::kDiscard});
  if (!child.ok()) return false;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (std::chrono::steady_clock::now() < deadline) {
    if (std::optional<ExitStatus> status = child->process.try_reap()) {
      return status->exit_code == 0;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return false;  // the child is killed and reaped by its owner
}

std::shared_ptr<SandboxAdapter> make_process_adapter_with(std::unique_ptr<WorkerLauncher> launcher,
                                                          std::function<bool()> is_available,
                                                          IsolationProfile isolation,
                                                          EngineProfile engine,
                                                          std::int64_t stack_bytes) {
  return std::make_shared<ProcessAdapter>(std::move(launcher), std::move(is_available), isolation,
                                          engine, stack_bytes);
}

bool process_adapter_available(const ProcessAdapterOptions& options) {
  const std::string& path = options.worker_path;
  const bool stack_in_range =
      options.stack_bytes >= kMinEngineStackBytes && options.stack_bytes <= kMaxEngineStackBytes;
  return stack_in_range && is_executable_file(path) && kernel_supports_seccomp_filters() &&
         worker_runs(path, options.engine) &&
         (options.isolation != IsolationProfile::kIsolated || isolation_works(path));
}

std::shared_ptr<SandboxAdapter> make_process_adapter_probed_by(ProcessAdapterOptions options,
                                                               std::function<bool()> is_available) {
  options.worker_path = absolute_worker_path(options.worker_path);
  std::unique_ptr<WorkerLauncher> launcher =
      options.spawn == SpawnMode::kExec
          ? make_exec_launcher(options.worker_path, options.isolation, options.engine)
          : make_fork_server_launcher(options.worker_path, options.isolation, options.engine);
  return make_process_adapter_with(std::move(launcher), std::move(is_available), options.isolation,
                                   options.engine, options.stack_bytes);
}

}  // namespace internal

std::string default_worker_path() {
  return internal::find_worker(internal::current_module(), internal::install_layout());
}

std::shared_ptr<SandboxAdapter> make_process_adapter(ProcessAdapterOptions options) {
  ProcessAdapterOptions probed = options;
  probed.worker_path = internal::absolute_worker_path(options.worker_path);
  return internal::make_process_adapter_probed_by(
      std::move(options), [probed] { return internal::process_adapter_available(probed); });
}

}  // namespace codemode
