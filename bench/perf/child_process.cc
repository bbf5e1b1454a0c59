#include "perf/child_process.h"

#include <cerrno>
#include <utility>

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace codemode::perf {
namespace {

// Owns one fd; closes it when destroyed or reset.
class ScopedFd {
 public:
  ScopedFd() = default;
  explicit ScopedFd(int fd) : fd_(fd) {}
  ScopedFd(ScopedFd&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
  ScopedFd& operator=(ScopedFd&&) = delete;
  ScopedFd(const ScopedFd&) = delete;
  ~ScopedFd() { reset(); }
  int get() const { return fd_; }
  int release() { return std::exchange(fd_, -1); }
  void reset() {
    if (fd_ >= 0) close(fd_);
    fd_ = -1;
  }

 private:
  int fd_ = -1;
};

struct Pipe {
  ScopedFd read;
  ScopedFd write;
};

Error child_error(const char* message) { return Error::tool_failed("child_process", message); }

// O_CLOEXEC, so a child spawned by another thread at the same time does not inherit our ends.
Result<Pipe> make_pipe() {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) return child_error("A pipe could not be made.");
  return Pipe{ScopedFd(fds[0]), ScopedFd(fds[1])};
}

// Owns the spawn's file actions; dup2 onto 0, 1 and 2 clears O_CLOEXEC on the targets.
class FileActions {
 public:
  FileActions(int stdin_fd, int stdout_fd) {
    posix_spawn_file_actions_init(&actions_);
    posix_spawn_file_actions_adddup2(&actions_, stdin_fd, 0);
    posix_spawn_file_actions_adddup2(&actions_, stdout_fd, 1);
    posix_spawn_file_actions_addopen(&actions_, 2, "/dev/null", O_WRONLY, 0);
  }
  FileActions(const FileActions&) = delete;
  FileActions& operator=(const FileActions&) = delete;
  ~FileActions() { posix_spawn_file_actions_destroy(&actions_); }
  const posix_spawn_file_actions_t* get() const { return &actions_; }

 private:
  posix_spawn_file_actions_t actions_;
};

std::string read_all(int fd) {
  std::string out;
  char buffer[65536];
  for (;;) {
    const ssize_t n = read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return out;
    out.append(buffer, static_cast<std::size_t>(n));
  }
}

}  // namespace

bool write_all(int fd, std::string_view text) {
  while (!text.empty()) {
    const ssize_t n = write(fd, text.data(), text.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    text.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

int reap_child(pid_t pid) {
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return status;
}

Result<SpawnedChild> spawn_child(const std::vector<std::string>& argv) {
  Result<Pipe> in = make_pipe();
  if (!in.ok()) return in.error();
  Result<Pipe> out = make_pipe();
  if (!out.ok()) return out.error();
  std::vector<char*> args;
  for (const std::string& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  {
    FileActions actions(in->read.get(), out->write.get());
    if (posix_spawn(&pid, args[0], actions.get(), nullptr, args.data(), environ) != 0) {
      return child_error("The child could not be started.");
    }
  }
  return SpawnedChild{
      .pid = pid, .stdin_fd = in->write.release(), .stdout_fd = out->read.release()};
}

Result<ChildRun> run_child(const std::vector<std::string>& argv, std::string_view stdin_text) {
  Result<SpawnedChild> child = spawn_child(argv);
  if (!child.ok()) return child.error();
  ScopedFd to_child(child->stdin_fd);
  ScopedFd from_child(child->stdout_fd);
  // A child that closed its stdin early fails here; its answer says what happened.
  write_all(to_child.get(), stdin_text);
  to_child.reset();
  ChildRun run{.output = read_all(from_child.get())};
  run.wait_status = reap_child(child->pid);
  return run;
}

}  // namespace codemode::perf
