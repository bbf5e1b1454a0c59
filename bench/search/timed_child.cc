#include "search/timed_child.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <utility>

#include <fcntl.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

namespace codemode::search_bench {
namespace {

Error child_error(const std::string& message) {
  return Error::tool_failed("child_process", message);
}

double milliseconds(const timeval& time) {
  return static_cast<double>(time.tv_sec) * 1e3 + static_cast<double>(time.tv_usec) / 1e3;
}

// Owns the spawn's file actions.
class FileActions {
 public:
  FileActions() { posix_spawn_file_actions_init(&actions_); }
  FileActions(const FileActions&) = delete;
  FileActions& operator=(const FileActions&) = delete;
  ~FileActions() { posix_spawn_file_actions_destroy(&actions_); }
  posix_spawn_file_actions_t* get() { return &actions_; }

 private:
  posix_spawn_file_actions_t actions_;
};

std::vector<char*> pointers(const std::vector<std::string>& strings) {
  std::vector<char*> pointers;
  pointers.reserve(strings.size() + 1);
  for (const std::string& text : strings) pointers.push_back(const_cast<char*>(text.c_str()));
  pointers.push_back(nullptr);
  return pointers;
}

}  // namespace

Result<ChildTiming> run_timed(const std::vector<std::string>& argv,
                              const std::vector<std::string>& environment, ChildOutput output) {
  int fds[2] = {-1, -1};
  if (output == ChildOutput::kCapture && pipe2(fds, O_CLOEXEC) != 0) {
    return child_error("A pipe could not be made.");
  }
  std::vector<char*> args = pointers(argv);
  std::vector<char*> env = pointers(environment);
  FileActions actions;
  posix_spawn_file_actions_addopen(actions.get(), 0, "/dev/null", O_RDONLY, 0);
  if (output == ChildOutput::kCapture) {
    posix_spawn_file_actions_adddup2(actions.get(), fds[1], 1);
  } else {
    posix_spawn_file_actions_addopen(actions.get(), 1, "/dev/null", O_WRONLY, 0);
  }
  posix_spawn_file_actions_addopen(actions.get(), 2, "/dev/null", O_WRONLY, 0);

  const auto began = std::chrono::steady_clock::now();
  pid_t pid = 0;
  const int spawned = posix_spawnp(&pid, args[0], actions.get(), nullptr, args.data(), env.data());
  if (output == ChildOutput::kCapture) close(fds[1]);
  if (spawned != 0) {
    if (output == ChildOutput::kCapture) close(fds[0]);
    return child_error("'" + argv[0] + "' could not be started.");
  }
  ChildTiming timing;
  if (output == ChildOutput::kCapture) {
    char buffer[1 << 16];
    for (;;) {
      const ssize_t n = read(fds[0], buffer, sizeof buffer);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      timing.output.append(buffer, static_cast<std::size_t>(n));
    }
    close(fds[0]);
    timing.lines =
        static_cast<std::size_t>(std::count(timing.output.begin(), timing.output.end(), '\n'));
  }
  int status = 0;
  rusage usage{};
  while (wait4(pid, &status, 0, &usage) < 0 && errno == EINTR) {
  }
  timing.wall_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - began).count();
  timing.cpu_ms = milliseconds(usage.ru_utime) + milliseconds(usage.ru_stime);
  timing.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return timing;
}

Status run_setup_shell(const std::string& script, const std::vector<std::string>& arguments,
                       const std::vector<std::string>& environment) {
  std::vector<std::string> argv{"/bin/sh", "-c", script, "sh"};
  argv.insert(argv.end(), arguments.begin(), arguments.end());
  Result<ChildTiming> ran = run_timed(argv, environment, ChildOutput::kDiscard);
  if (!ran.ok()) return std::move(ran).error();
  if (ran->exit_code != 0) {
    return child_error("set-up step failed (exit " + std::to_string(ran->exit_code) +
                       "): " + script);
  }
  return {};
}

}  // namespace codemode::search_bench
