#include "sandbox/process/fork_server_launcher.h"

#include <mutex>
#include <optional>
#include <utility>
#include <vector>

#include <fcntl.h>
#include <sys/socket.h>

#include "protocol/fork_server_messages.h"
#include "sandbox/process/isolation_spawn.h"
#include "sandbox/process/parent_thread.h"

namespace codemode::internal {
namespace {

Error start_failed() {
  return Error::tool_failed("fork_server_failed", "The fork server could not start.");
}

class ForkServerLauncher final : public WorkerLauncher {
 public:
  ForkServerLauncher(std::string worker_path, IsolationProfile isolation, EngineProfile engine)
      : path_(std::move(worker_path)), isolation_(isolation), engine_(engine) {}

  ~ForkServerLauncher() override { drop_server(); }

  Result<WorkerProcess> launch() override {
    std::lock_guard lock(mu_);
    if (Status running = ensure_server(); !running.ok()) return running.error();
    std::optional<StdioPipes> pipes = make_stdio_pipes();
    if (!pipes) return start_failed();
    const std::array<int, kForkRequestFds> child_ends{
        pipes->child_ends[0].get(), pipes->child_ends[1].get(), pipes->child_ends[2].get()};
    bool server_lost = true;
    Result<pid_t> pid =
        send_fork_request(socket_.get(), child_ends).ok()
            ? receive_fork_reply(socket_.get(), kForkServerReplyMillis, &server_lost)
            : Result<pid_t>(start_failed());
    if (!pid.ok()) {
      if (server_lost) drop_server();
      return pid.error();
    }
    return WorkerProcess{.stdin_fd = std::move(pipes->stdin_fd),
                         .stdout_fd = std::move(pipes->stdout_fd),
                         .stderr_fd = std::move(pipes->stderr_fd),
                         .process = ChildProcess(*pid)};
  }

  pid_t server_pid() {
    std::lock_guard lock(mu_);
    return server_.owned() ? server_.pid() : -1;
  }

 private:
  // A server that ended while idle is reaped and replaced.
  Status ensure_server() {
    if (server_.owned() && !server_.try_reap()) return {};
    drop_server();
    return start_server();
  }

  Status start_server() {
    int pair[2];
    if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, pair) != 0) return start_failed();
    UniqueFd ours(pair[0]);
    UniqueFd theirs(pair[1]);
    UniqueFd null(open("/dev/null", O_RDWR | O_CLOEXEC));
    if (!null.valid()) return start_failed();
    std::vector<std::string> argv{path_, "--fork-server"};
    for (std::string& flag : worker_profile_flags(isolation_, engine_)) {
      argv.push_back(std::move(flag));
    }
    const NamespacedSpawn spawn{.path = path_,
                                .argv = std::move(argv),
                                .stdio = {theirs.get(), null.get(), null.get()},
                                .namespaces = isolation_ == IsolationProfile::kIsolated
                                                  ? isolation_namespaces_without_pid()
                                                  : 0};
    Result<ChildProcess> server = start_failed();
    parent_thread_.run([&] { server = spawn_in_namespaces(spawn); });
    if (!server.ok()) return server.error();
    server_ = std::move(*server);
    socket_ = std::move(ours);
    return {};
  }

  void drop_server() {
    socket_.reset();          // the server sees EOF ...
    server_.kill_and_reap();  // ... but is not waited for
  }

  const std::string path_;
  const IsolationProfile isolation_;
  const EngineProfile engine_;
  ParentThread parent_thread_;  // first: destroyed after the server is reaped
  std::mutex mu_;
  UniqueFd socket_;
  ChildProcess server_;
};

}  // namespace

std::unique_ptr<WorkerLauncher> make_fork_server_launcher(std::string worker_path,
                                                          IsolationProfile isolation,
                                                          EngineProfile engine) {
  return std::make_unique<ForkServerLauncher>(std::move(worker_path), isolation, engine);
}

pid_t fork_server_pid(WorkerLauncher& launcher) {
  return static_cast<ForkServerLauncher&>(launcher).server_pid();
}

}  // namespace codemode::internal
