#include "core/process/child_process.h"

#include <array>
#include <utility>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/process/clone_exec.h"

namespace codemode::internal {
namespace {

Error spawn_error() {
  return Error::tool_failed("spawn_failed", "A child process could not be started.");
}

// One pipe: the child's end (blocking, kept >= 3) and the parent's end (non-blocking).
struct Pipe {
  UniqueFd child_end;
  UniqueFd parent_end;
};

// The child's end must not be 0, 1 or 2: posix_spawn dup2s the three ends onto 0, 1 and 2 in
// order, and an end already sitting on one of those numbers (a host that closed its own stdin)
// would be overwritten before it is duplicated.
bool move_above_stdio(UniqueFd& fd) {
  if (fd.get() > 2) return true;
  const int moved = fcntl(fd.get(), F_DUPFD_CLOEXEC, 3);
  if (moved < 0) return false;
  fd.reset(moved);
  return true;
}

// O_CLOEXEC from the start: a child spawned by another thread meanwhile must not inherit it.
std::optional<Pipe> make_pipe(bool child_reads) {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) return std::nullopt;
  UniqueFd read_end(fds[0]);
  UniqueFd write_end(fds[1]);
  Pipe pipe = child_reads ? Pipe{std::move(read_end), std::move(write_end)}
                          : Pipe{std::move(write_end), std::move(read_end)};
  if (!move_above_stdio(pipe.child_end)) return std::nullopt;
  // Only the parent's open file description becomes non-blocking; the child's stays blocking.
  const int flags = fcntl(pipe.parent_end.get(), F_GETFL);
  if (flags < 0 || fcntl(pipe.parent_end.get(), F_SETFL, flags | O_NONBLOCK) != 0) {
    return std::nullopt;
  }
  return pipe;
}

// Owners for posix_spawn's two C structures.
struct SpawnActions {
  posix_spawn_file_actions_t actions;
  bool ok = posix_spawn_file_actions_init(&actions) == 0;
  ~SpawnActions() {
    if (ok) posix_spawn_file_actions_destroy(&actions);
  }
};

struct SpawnAttributes {
  posix_spawnattr_t attributes;
  bool ok = posix_spawnattr_init(&attributes) == 0;
  ~SpawnAttributes() {
    if (ok) posix_spawnattr_destroy(&attributes);
  }
};

// fds 0..2 onto the pipes (or /dev/null), then every fd from 3 up closed in the child, whether
// or not whoever opened it remembered O_CLOEXEC.
bool add_fd_actions(SpawnActions& file, const Pipe& in, const Pipe& out, const Pipe* err) {
  posix_spawn_file_actions_t* actions = &file.actions;
  if (posix_spawn_file_actions_adddup2(actions, in.child_end.get(), 0) != 0) return false;
  if (posix_spawn_file_actions_adddup2(actions, out.child_end.get(), 1) != 0) return false;
  const int err_status =
      err ? posix_spawn_file_actions_adddup2(actions, err->child_end.get(), 2)
          : posix_spawn_file_actions_addopen(actions, 2, "/dev/null", O_WRONLY, 0);
  if (err_status != 0) return false;
  return posix_spawn_file_actions_addclosefrom_np(actions, 3) == 0;
}

// glibc 2.29+: the chdir happens in the child, after the fd actions, before execve.
bool add_cwd_action(SpawnActions& file, const std::string& cwd) {
  return cwd.empty() || posix_spawn_file_actions_addchdir_np(&file.actions, cwd.c_str()) == 0;
}

// The host may block or ignore signals (a CLI ignoring SIGPIPE); the child starts clean. With
// Group::kOwn the child calls setpgid(0, 0) before it executes the program: no instant of it runs
// (and no child of it is started) outside its group, and posix_spawn returns only after that.
bool set_attributes(SpawnAttributes& spawn, ChildProcess::Group group) {
  sigset_t all;
  sigset_t none;
  sigfillset(&all);
  sigemptyset(&none);
  short flags = POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK;
  if (group == ChildProcess::Group::kOwn) {
    if (posix_spawnattr_setpgroup(&spawn.attributes, 0) != 0) return false;
    flags |= POSIX_SPAWN_SETPGROUP;
  }
  return posix_spawnattr_setsigdefault(&spawn.attributes, &all) == 0 &&
         posix_spawnattr_setsigmask(&spawn.attributes, &none) == 0 &&
         posix_spawnattr_setflags(&spawn.attributes, flags) == 0;
}

std::vector<char*> c_strings(const std::vector<std::string>& strings) {
  std::vector<char*> pointers;
  pointers.reserve(strings.size() + 1);
  for (const std::string& text : strings) pointers.push_back(const_cast<char*>(text.c_str()));
  pointers.push_back(nullptr);
  return pointers;
}

// The child's pid, or -1. glibc's posix_spawn reports a failed execve as its result.
pid_t posix_spawn_child(const SpawnOptions& options, const Pipe& in, const Pipe& out,
                        const Pipe* err, std::vector<char*>& argv, std::vector<char*>& envp) {
  SpawnActions actions;
  SpawnAttributes attributes;
  if (!actions.ok || !attributes.ok || !add_fd_actions(actions, in, out, err) ||
      !add_cwd_action(actions, options.cwd) || !set_attributes(attributes, options.group)) {
    return -1;
  }
  pid_t pid = -1;
  if (posix_spawn(&pid, options.path.c_str(), &actions.actions, &attributes.attributes, argv.data(),
                  envp.data()) != 0) {
    return -1;
  }
  return pid;
}

}  // namespace

ExitStatus exit_status_from_wait(int wait_status) {
  if (WIFEXITED(wait_status)) return ExitStatus{.exit_code = WEXITSTATUS(wait_status)};
  if (WIFSIGNALED(wait_status)) return ExitStatus{.signal = WTERMSIG(wait_status)};
  return ExitStatus{};
}

ChildProcess::ChildProcess(ChildProcess&& other) noexcept
    : pid_(std::exchange(other.pid_, -1)), own_group_(other.own_group_) {}

ChildProcess& ChildProcess::operator=(ChildProcess&& other) noexcept {
  if (this != &other) {
    kill_and_reap();
    pid_ = std::exchange(other.pid_, -1);
    own_group_ = other.own_group_;
  }
  return *this;
}

// Only ever called while the child is unreaped (pid_ > 0), which keeps both numbers ours (see the
// header). One kill(-pgid) reaches every member, also one forking at that moment: the kernel
// delivers a group signal to a forking process's new child too, or fails the fork.
void ChildProcess::kill() const {
  if (pid_ <= 0) return;
  if (own_group_) ::kill(-pid_, SIGKILL);
  ::kill(pid_, SIGKILL);  // also a leader that moved itself to another group of its session
}

std::optional<ExitStatus> ChildProcess::try_reap() {
  if (own_group_ && pid_ > 0) {
    // Looks without reaping (WNOWAIT): an exited leader's zombie keeps the group id ours while
    // what it left running (a background job) is killed. ECHILD falls through to wait().
    siginfo_t info{};
    int looked;
    do {
      looked = waitid(P_PID, static_cast<id_t>(pid_), &info, WEXITED | WNOHANG | WNOWAIT);
    } while (looked < 0 && errno == EINTR);
    if (looked == 0 && info.si_pid == 0) return std::nullopt;  // still running
    if (looked == 0) kill();
  }
  return wait(WNOHANG);
}

std::optional<ExitStatus> ChildProcess::kill_and_reap() {
  kill();
  return wait(0);
}

std::optional<ExitStatus> ChildProcess::wait(int options) {
  if (pid_ <= 0) return std::nullopt;
  int status = 0;
  struct rusage usage {};
  pid_t waited;
  do {
    waited = wait4(pid_, &status, options, &usage);
  } while (waited < 0 && errno == EINTR);
  if (waited == 0) return std::nullopt;  // WNOHANG: still running
  // waited < 0 (ECHILD): someone else reaped it; it is gone either way and must not be signalled.
  pid_ = -1;
  if (waited < 0) return std::nullopt;
  ExitStatus exit_status = exit_status_from_wait(status);
  const auto micros = [](const struct timeval& time) {
    return static_cast<std::int64_t>(time.tv_sec) * 1'000'000 + time.tv_usec;
  };
  exit_status.cpu_micros = micros(usage.ru_utime) + micros(usage.ru_stime);
  return exit_status;
}

std::optional<StdioPipes> make_stdio_pipes() {
  std::optional<Pipe> in = make_pipe(/*child_reads=*/true);
  std::optional<Pipe> out = make_pipe(/*child_reads=*/false);
  std::optional<Pipe> err = make_pipe(/*child_reads=*/false);
  if (!in || !out || !err) return std::nullopt;
  return StdioPipes{.child_ends = {std::move(in->child_end), std::move(out->child_end),
                                   std::move(err->child_end)},
                    .stdin_fd = std::move(in->parent_end),
                    .stdout_fd = std::move(out->parent_end),
                    .stderr_fd = std::move(err->parent_end)};
}

Result<SpawnedChild> spawn_child(const SpawnOptions& options) {
  const bool pipe_stderr = options.stderr_mode == SpawnOptions::Stderr::kPipe;
  std::optional<Pipe> in = make_pipe(/*child_reads=*/true);
  std::optional<Pipe> out = make_pipe(/*child_reads=*/false);
  std::optional<Pipe> err = pipe_stderr ? make_pipe(/*child_reads=*/false) : std::nullopt;
  if (!in || !out || (pipe_stderr && !err)) return spawn_error();
  std::vector<char*> argv = c_strings(options.argv);
  std::vector<char*> envp = c_strings(options.env);
  const pid_t pid = options.parent_death == SpawnOptions::ParentDeath::kKill
                        ? clone_exec({.path = options.path.c_str(),
                                      .argv = argv.data(),
                                      .envp = envp.data(),
                                      .stdio = {in->child_end.get(), out->child_end.get(),
                                                err ? err->child_end.get() : -1},
                                      .cwd = options.cwd.empty() ? nullptr : options.cwd.c_str(),
                                      .own_group = options.group == ChildProcess::Group::kOwn,
                                      .kill_with_parent = true})
                        : posix_spawn_child(options, *in, *out, err ? &*err : nullptr, argv, envp);
  // Both report a failed execve here and reap that child themselves.
  if (pid < 0) return spawn_error();
  return SpawnedChild{.stdin_fd = std::move(in->parent_end),
                      .stdout_fd = std::move(out->parent_end),
                      .stderr_fd = err ? std::move(err->parent_end) : UniqueFd(),
                      .process = ChildProcess(pid, options.group)};
}

}  // namespace codemode::internal
