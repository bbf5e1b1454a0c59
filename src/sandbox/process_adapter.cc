// The process adapter: one fresh, confined codemode-worker per execution (process_adapter.h).
#include "sandbox/process_adapter.h"

#include <errno.h>
#include <linux/seccomp.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <mutex>
#include <thread>
#include <utility>

#include "core/child_process.h"
#include "sandbox/tool_result_mailbox.h"
#include "sandbox/worker_session.h"

namespace codemode {
namespace internal {
namespace {

// The built-in worker runs plain JavaScript without a module loader.
bool runs_in_worker(const CodeProgram& program) {
  const Json& imports = program.manifest().at("approvedImports");
  return program.language() == ProgramLanguage::kJavaScript && imports.empty();
}

class ProcessAdapter final : public SandboxAdapter {
 public:
  ProcessAdapter(std::unique_ptr<WorkerLauncher> launcher, std::function<bool()> is_available)
      : launcher_(std::move(launcher)), probe_(std::move(is_available)) {}

  std::string id() const override { return "codemode.process"; }
  std::string version() const override { return "1.0.0"; }
  AdapterQualification qualification() const override { return AdapterQualification::kProduction; }

  bool is_available() override {
    std::call_once(probed_, [this] { available_ = probe_(); });
    return available_;
  }

  SandboxResult execute(const SandboxRequest& request, ToolBridge& tools,
                        std::stop_token stop) override {
    if (!runs_in_worker(request.program)) {
      return SandboxResult::failure(SandboxFailureReason::kUnsupportedProgram);
    }
    // Stopped already: the executor reports the timeout or cancellation, not this.
    if (stop.stop_requested()) return SandboxResult::failure(SandboxFailureReason::kSandboxError);
    std::shared_ptr<ToolResultMailbox> mailbox = ToolResultMailbox::create();
    if (!mailbox) return SandboxResult::failure(SandboxFault::kWorkerStartFailed);
    Result<WorkerProcess> worker = launcher_->launch();
    if (!worker.ok()) return SandboxResult::failure(SandboxFault::kWorkerStartFailed);
    WorkerSession session(std::move(*worker), std::move(mailbox), request, tools);
    return session.run(std::move(stop));
  }

 private:
  const std::unique_ptr<WorkerLauncher> launcher_;
  const std::function<bool()> probe_;
  std::once_flag probed_;
  bool available_ = false;
};

bool is_executable_file(const std::string& path) {
  struct stat info;
  return stat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode) && access(path.c_str(), X_OK) == 0;
}

std::string absolute_worker_path(const std::string& requested) {
  const std::string path = requested.empty() ? default_worker_path() : requested;
  std::error_code error;
  std::filesystem::path absolute = std::filesystem::absolute(path, error);
  // On failure the path stays as given; is_available then reports whether it can be executed.
  return error ? path : absolute.lexically_normal().string();
}

}  // namespace

bool kernel_supports_seccomp_filters() {
  const long status = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, nullptr);
  return status < 0 && errno == EFAULT;
}

bool worker_runs(const std::string& path) {
  Result<SpawnedChild> child = spawn_child(
      {.path = path, .argv = {path, "--probe"}, .stderr_mode = SpawnOptions::Stderr::kDiscard});
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
                                                          std::function<bool()> is_available) {
  return std::make_shared<ProcessAdapter>(std::move(launcher), std::move(is_available));
}

}  // namespace internal

std::string default_worker_path() { return CODEMODE_WORKER_DEFAULT_PATH; }

std::shared_ptr<SandboxAdapter> make_process_adapter(ProcessAdapterOptions options) {
  std::string path = internal::absolute_worker_path(options.worker_path);
  auto is_available = [path] {
    return internal::is_executable_file(path) && internal::kernel_supports_seccomp_filters() &&
           internal::worker_runs(path);
  };
  return internal::make_process_adapter_with(internal::make_exec_launcher(path),
                                             std::move(is_available));
}

}  // namespace codemode
