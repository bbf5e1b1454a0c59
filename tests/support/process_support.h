// Helpers for tests that start processes: where the built binaries are, what this process still
// holds (fds, children), and running a binary to completion with its stdout, stderr and status.
#ifndef CODEMODE_TESTS_SUPPORT_PROCESS_SUPPORT_H_
#define CODEMODE_TESTS_SUPPORT_PROCESS_SUPPORT_H_

#include <array>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <dirent.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/process/child_process.h"
#include "core/process/pipe_io.h"

namespace codemode::testing {

// The real worker binary, when this build has one.
inline std::optional<std::string> worker_binary() {
#ifdef CODEMODE_WORKER_BINARY
  if (access(CODEMODE_WORKER_BINARY, X_OK) == 0) return std::string(CODEMODE_WORKER_BINARY);
#endif
  return std::nullopt;
}

inline std::optional<std::string> testhooks_worker_binary() {
#ifdef CODEMODE_WORKER_TESTHOOKS_BINARY
  if (access(CODEMODE_WORKER_TESTHOOKS_BINARY, X_OK) == 0) {
    return std::string(CODEMODE_WORKER_TESTHOOKS_BINARY);
  }
#endif
  return std::nullopt;
}

// Skips the test, with the reason printed, when the worker was not built.
#define CODEMODE_REQUIRE_WORKER()                                                        \
  if (!::codemode::testing::worker_binary()) {                                           \
    GTEST_SKIP() << "codemode-worker is not built in this configuration (src/worker is " \
                    "absent), so the real process adapter cannot run.";                  \
  }

inline std::size_t open_fd_count() {
  std::size_t count = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator("/proc/self/fd")) {
    ++count;
  }
  return count;  // includes the directory iterator's own fd, the same each time
}

// Every process whose parent is this one, zombies included: read from /proc/<pid>/stat.
inline std::vector<pid_t> child_pids() {
  std::vector<pid_t> children;
  const pid_t self = getpid();
  for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
    const std::string name = entry.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::ifstream stat(entry.path() / "stat");
    std::string line;
    if (!std::getline(stat, line)) continue;
    const std::size_t close = line.rfind(')');  // the command name may hold spaces
    if (close == std::string::npos) continue;
    std::istringstream rest(line.substr(close + 2));
    char state = 0;
    pid_t parent = 0;
    rest >> state >> parent;
    if (parent == self) children.push_back(static_cast<pid_t>(std::stol(name)));
  }
  return children;
}

// Whether `pid` is a child of this process not yet reaped (running or a zombie). Asked of the
// kernel, not of the shared process table: once reaped, the pid may at once be another process's
// (tests run in parallel, and pids wrap), which kill(pid, 0) or /proc/<pid> would then see.
inline bool is_unreaped_child(pid_t pid) {
  siginfo_t info{};
  return waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0;
}

// Whether `pid` is a live fork server (`codemode-worker --fork-server`, which an adapter in
// fork-server mode keeps running as long as it lives): its name says so (src/worker/fork_server.h
// kForkServerName; its children, which share its command line, take the worker's name back). A
// zombie fork server still counts as a child left behind.
inline bool is_fork_server(pid_t pid) {
  std::ifstream comm("/proc/" + std::to_string(pid) + "/comm");
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string name;
  std::string line;
  if (!std::getline(comm, name) || !std::getline(stat, line)) return false;
  const std::size_t close = line.rfind(')');
  const bool zombie =
      close != std::string::npos && line.size() > close + 2 && line[close + 2] == 'Z';
  return name == "codemode-forksv" && !zombie;
}

// child_pids() but the adapters' live fork servers: workers, zombies and anything else left.
inline std::vector<pid_t> child_pids_but_fork_servers() {
  std::vector<pid_t> children;
  for (pid_t pid : child_pids()) {
    if (!is_fork_server(pid)) children.push_back(pid);
  }
  return children;
}

// Makes this process the reaper of orphaned descendants for the scope, so a process a worker or
// command left would be reparented here when its parent dies, and seen by child_pids. Ends with
// the scope: a test binary runs many tests in one process, and a later test must not find the
// grandchildren its own killed process groups leave as children of its own.
class SubreaperScope {
 public:
  SubreaperScope() { active_ = prctl(PR_SET_CHILD_SUBREAPER, 1) == 0; }
  ~SubreaperScope() {
    if (active_) prctl(PR_SET_CHILD_SUBREAPER, 0);
  }
  SubreaperScope(const SubreaperScope&) = delete;
  SubreaperScope& operator=(const SubreaperScope&) = delete;
  bool active() const { return active_; }

 private:
  bool active_ = false;
};

// The "Key:\tvalue" lines of /proc/<pid>/status (or /proc/<pid>/task/<tid>/status, given as
// `path`), each value without its leading blanks ("VmData" -> "1144 kB", "Seccomp" -> "2").
inline std::map<std::string, std::string> proc_status_at(const std::filesystem::path& path) {
  std::ifstream file(path);
  std::map<std::string, std::string> fields;
  std::string line;
  while (std::getline(file, line)) {
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    const auto value = line.find_first_not_of(" \t", colon + 1);
    fields[line.substr(0, colon)] = value == std::string::npos ? "" : line.substr(value);
  }
  return fields;
}
inline std::map<std::string, std::string> proc_status(pid_t pid) {
  return proc_status_at("/proc/" + std::to_string(pid) + "/status");
}

inline std::set<std::string> directory_entries(const std::string& path) {
  std::set<std::string> names;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(path, error)) {
    names.insert(entry.path().filename().string());
  }
  return names;
}

struct ProcessRun {
  std::optional<int> exit_code;
  std::string out;
  std::string err;
};

// Runs `argv` (argv[0] is the path) with `stdin_text` and the environment `env` ("NAME=value"
// entries; none by default), collecting stdout and stderr, and waits for it to exit. Bounded by
// `timeout`, after which it is killed.
inline ProcessRun run_process(const std::vector<std::string>& argv, const std::string& stdin_text,
                              std::chrono::milliseconds timeout = std::chrono::seconds(60),
                              std::vector<std::string> env = {}) {
  auto child = internal::spawn_child({.path = argv[0], .argv = argv, .env = std::move(env)});
  ProcessRun run;
  if (!child.ok()) return run;
  std::string_view input = stdin_text;
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while ((child->stdout_fd.valid() || child->stderr_fd.valid()) &&
         std::chrono::steady_clock::now() < deadline) {
    std::array<pollfd, 3> fds{{{child->stdout_fd.get(), POLLIN, 0},
                               {child->stderr_fd.get(), POLLIN, 0},
                               {child->stdin_fd.get(), POLLOUT, 0}}};
    if (poll(fds.data(), fds.size(), 100) <= 0) continue;
    if (fds[2].revents != 0) {
      auto written = internal::write_some(child->stdin_fd.get(), input);
      if (written.status == internal::IoStatus::kOk) input.remove_prefix(written.bytes);
      if (written.status != internal::IoStatus::kOk || input.empty()) child->stdin_fd.reset();
    }
    for (auto [index, fd, out] :
         {std::tuple{0, &child->stdout_fd, &run.out}, std::tuple{1, &child->stderr_fd, &run.err}}) {
      if (fds[index].revents == 0) continue;
      auto read = internal::read_some(fd->get(), 1 << 16, *out);
      if (read.status == internal::IoStatus::kClosed ||
          read.status == internal::IoStatus::kFailed) {
        fd->reset();
      }
    }
  }
  // Closed pipes mean it is exiting; a short grace before the kill in kill_and_reap.
  for (int i = 0; i < 2000 && child->process.owned(); ++i) {
    if (auto status = child->process.try_reap()) {
      run.exit_code = status->exit_code;
      return run;
    }
    usleep(1000);
  }
  child->process.kill_and_reap();
  return run;
}

}  // namespace codemode::testing

#endif  // CODEMODE_TESTS_SUPPORT_PROCESS_SUPPORT_H_
