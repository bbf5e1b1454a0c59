#include "sandbox/protocol/launched_worker.h"

#include <chrono>
#include <utility>

#include "core/crypto/random_hex.h"
#include "core/process/child_process.h"
#include "core/process/command_runner.h"
#include "core/time/deadline_timer.h"
#include "sandbox/process/worker_execution.h"

namespace codemode::internal {
namespace {

constexpr auto kTerminateTimeout = std::chrono::seconds(10);
constexpr std::size_t kTerminateOutputBytes = 64u << 10;

// Runs the terminate command once, when it goes out of scope: execute_in_worker has killed and
// reaped the launch command by then.
class TerminateCommand {
 public:
  explicit TerminateCommand(const WorkerCommands& commands) : commands_(commands) {}
  TerminateCommand(const TerminateCommand&) = delete;
  TerminateCommand& operator=(const TerminateCommand&) = delete;
  ~TerminateCommand() {
    const std::vector<std::string>& argv = commands_.terminate;
    if (argv.empty()) return;
    try {
      std::stop_source expired;
      TimerHandle deadline = DeadlineTimer::schedule(
          DeadlineTimer::Clock::now() + kTerminateTimeout, [&expired] { expired.request_stop(); });
      run_command({.path = argv[0], .argv = argv, .env = commands_.environment}, "",
                  kTerminateOutputBytes, expired.get_token());
    } catch (...) {
      // Out of memory: nothing more can be done for this execution's remains.
    }
  }

 private:
  const WorkerCommands& commands_;
};

}  // namespace

std::string new_sandbox_name() {
  std::string hex = random_hex(16);
  return hex.empty() ? std::string() : "codemode-" + hex;
}

SandboxResult execute_launched_worker(const SandboxRequest& request, ToolBridge& tools,
                                      std::stop_token stop, const WorkerCommands& commands,
                                      std::span<const std::string_view> layers,
                                      std::int64_t stack_bytes) {
  // Declared first, so it runs last: after the session has killed and reaped the command.
  const TerminateCommand terminate(commands);
  const auto launch = [&] {
    return spawn_child({.path = commands.launch[0],
                        .argv = commands.launch,
                        .env = commands.environment,
                        .group = ChildProcess::Group::kOwn});
  };
  return execute_in_worker(request, tools, std::move(stop), launch, layers, stack_bytes);
}

}  // namespace codemode::internal
