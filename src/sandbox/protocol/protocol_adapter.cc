// The protocol adapter (include/codemode/protocol_adapter.h): each execution's worker is started
// by the host's own launch command; the session with it is the process adapter's.
#include "codemode/protocol_adapter.h"

#include <chrono>
#include <stop_token>
#include <string>
#include <utility>
#include <vector>

#include "core/child_process.h"
#include "core/deadline_timer.h"
#include "core/random_hex.h"
#include "protocol/frame_format.h"
#include "sandbox/protocol/protocol_adapter_options.h"
#include "sandbox/worker_execution.h"
#include "tools/command_path.h"
#include "tools/command_runner.h"

namespace codemode {
namespace internal {
namespace {

constexpr auto kTerminateTimeout = std::chrono::seconds(10);
constexpr std::size_t kTerminateOutputBytes = 64u << 10;

// Runs the terminate command once, when it goes out of scope: execute_in_worker has killed and
// reaped the launch command by then. Its output is discarded; it is killed after
// kTerminateTimeout.
class TerminateCommand {
 public:
  TerminateCommand(std::vector<std::string> argv, const std::vector<std::string>& environment)
      : argv_(std::move(argv)), environment_(environment) {}
  TerminateCommand(const TerminateCommand&) = delete;
  TerminateCommand& operator=(const TerminateCommand&) = delete;
  ~TerminateCommand() {
    if (argv_.empty()) return;
    try {
      std::stop_source expired;
      TimerHandle deadline = DeadlineTimer::schedule(
          DeadlineTimer::Clock::now() + kTerminateTimeout, [&expired] { expired.request_stop(); });
      run_command({.path = argv_[0], .argv = argv_, .env = environment_}, "", kTerminateOutputBytes,
                  expired.get_token());
    } catch (...) {
      // Out of memory: nothing more can be done for this execution's remains.
    }
  }

 private:
  const std::vector<std::string> argv_;
  const std::vector<std::string>& environment_;
};

class ProtocolAdapter final : public SandboxAdapter {
 public:
  explicit ProtocolAdapter(ProtocolAdapterOptions options) : options_(std::move(options)) {}

  std::string id() const override { return options_.id; }
  std::string version() const override { return options_.version; }
  AdapterQualification qualification() const override { return options_.qualification; }

  bool is_available() override {
    if (options_.is_available) return options_.is_available();
    return is_executable_file(options_.launch[0]);
  }

  SandboxResult execute(const SandboxRequest& request, ToolBridge& tools,
                        std::stop_token stop) override {
    const std::string sandbox_name = random_hex(16);
    if (sandbox_name.empty()) return SandboxResult::failure(SandboxFault::kWorkerStartFailed);
    // Declared first, so it runs last: after the session has killed and reaped the command.
    const TerminateCommand terminate(
        with_sandbox_name(options_.terminate, "codemode-" + sandbox_name), options_.environment);
    const auto launch = [&] {
      std::vector<std::string> argv =
          with_sandbox_name(options_.launch, "codemode-" + sandbox_name);
      std::string path = argv[0];
      return spawn_child({.path = std::move(path),
                          .argv = std::move(argv),
                          .env = options_.environment,
                          .group = ChildProcess::Group::kOwn});
    };
    return execute_in_worker(request, tools, std::move(stop), launch,
                             confinement_layers(options_.isolation, options_.engine),
                             options_.stack_bytes);
  }

 private:
  const ProtocolAdapterOptions options_;
};

}  // namespace
}  // namespace internal

Result<std::shared_ptr<SandboxAdapter>> make_protocol_adapter(ProtocolAdapterOptions options) {
  if (Status valid = internal::check_protocol_adapter_options(options); !valid.ok()) {
    return std::move(valid).error();
  }
  return std::shared_ptr<SandboxAdapter>(
      std::make_shared<internal::ProtocolAdapter>(std::move(options)));
}

}  // namespace codemode
