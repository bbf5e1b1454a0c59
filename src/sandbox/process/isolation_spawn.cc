#include "sandbox/process/isolation_spawn.h"

#include <chrono>
#include <optional>
#include <string_view>
#include <thread>
#include <utility>

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "core/process/block_all_signals.h"

namespace codemode::internal {
namespace {

Error spawn_error() {
  return Error::tool_failed("spawn_failed", "A child process could not be started.");
}

std::vector<char*> c_strings(const std::vector<std::string>& strings) {
  std::vector<char*> pointers;
  for (const std::string& text : strings) pointers.push_back(const_cast<char*>(text.c_str()));
  pointers.push_back(nullptr);
  return pointers;
}

// Everything the child uses, made before the clone: between clone and execve the child of a
// multi-threaded process may only make async-signal-safe calls (no allocation).
struct ChildPlan {
  const char* path;
  char* const* argv;
  char* const* envp;
  std::array<int, 3> stdio;  // each above 2, so the dup2s cannot overwrite one another
  int go_fd;                 // read end: a byte once the maps are written
  int report_fd;             // write end, close-on-exec: errno if execve fails
};

// Every signal to its default action, then unblocked (the parent blocked them all around the
// clone, so no handler of the host runs in the child). SIG_IGN would survive execve otherwise.
void reset_signals() {
  struct sigaction default_action {};
  default_action.sa_handler = SIG_DFL;
  for (int signal_number = 1; signal_number < NSIG; ++signal_number) {
    sigaction(signal_number, &default_action, nullptr);  // fails harmlessly for KILL, STOP
  }
  sigset_t none;
  sigemptyset(&none);
  // NOLINTNEXTLINE(concurrency-mt-unsafe): the clone child has one thread
  sigprocmask(SIG_SETMASK, &none, nullptr);
}

[[noreturn]] void run_child(const ChildPlan& plan) {
  char go = 0;
  ssize_t got;
  do {
    got = read(plan.go_fd, &go, 1);
  } while (got < 0 && errno == EINTR);
  if (got != 1) _exit(127);  // the parent gave up (it kills us anyway)
  for (int fd = 0; fd < 3; ++fd) {
    if (dup2(plan.stdio[fd], fd) != fd) _exit(127);
  }
  // Everything from 3 up closes at execve; report_fd stays usable until then.
  if (close_range(3, ~0U, CLOSE_RANGE_CLOEXEC) != 0) _exit(127);
  reset_signals();
  execve(plan.path, plan.argv, plan.envp);
  const int error = errno;
  (void)!write(plan.report_fd, &error, sizeof error);
  _exit(127);
}

bool write_file(const std::string& path, std::string_view text) {
  UniqueFd file(open(path.c_str(), O_WRONLY | O_CLOEXEC));
  return file.valid() &&
         write(file.get(), text.data(), text.size()) == static_cast<ssize_t>(text.size());
}

// uid 0 and gid 0 inside are the caller's effective ids outside. setgroups must be denied before
// an unprivileged process may write gid_map (user_namespaces(7)).
bool write_id_maps(pid_t child) {
  const std::string proc = "/proc/" + std::to_string(child) + "/";
  return write_file(proc + "uid_map", "0 " + std::to_string(geteuid()) + " 1\n") &&
         write_file(proc + "setgroups", "deny") &&
         write_file(proc + "gid_map", "0 " + std::to_string(getegid()) + " 1\n");
}

std::optional<std::array<UniqueFd, 2>> cloexec_pipe() {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) return std::nullopt;
  return std::array<UniqueFd, 2>{UniqueFd(fds[0]), UniqueFd(fds[1])};
}

// A raw clone(2) with fork semantics (no CLONE_VM): glibc's fork cannot take CLONE_NEW* flags,
// and unshare(2) cannot make the caller pid 1 or work in a multi-threaded process.
pid_t clone_child(const ChildPlan& plan, int namespaces) {
  BlockAllSignals blocked;
  const long pid = syscall(SYS_clone, static_cast<unsigned long>(namespaces) | SIGCHLD, nullptr,
                           nullptr, nullptr, 0);
  if (pid == 0) run_child(plan);
  return static_cast<pid_t>(pid);
}

// The child's fds 0, 1, 2 as duplicates above 2 (the originals may be 0, 1 or 2 of the caller).
std::optional<std::array<UniqueFd, 3>> stdio_above_2(const std::array<int, 3>& stdio) {
  std::array<UniqueFd, 3> copies;
  for (std::size_t i = 0; i < stdio.size(); ++i) {
    copies[i].reset(fcntl(stdio[i], F_DUPFD_CLOEXEC, 3));
    if (!copies[i].valid()) return std::nullopt;
  }
  return copies;
}

}  // namespace

int isolation_namespaces_without_pid() {
  return CLONE_NEWUSER | CLONE_NEWNET | CLONE_NEWNS | CLONE_NEWIPC | CLONE_NEWUTS;
}

int isolation_namespaces() { return isolation_namespaces_without_pid() | CLONE_NEWPID; }

Result<ChildProcess> spawn_in_namespaces(const NamespacedSpawn& spawn) {
  std::optional<std::array<UniqueFd, 3>> stdio = stdio_above_2(spawn.stdio);
  std::optional<std::array<UniqueFd, 2>> go = cloexec_pipe();
  std::optional<std::array<UniqueFd, 2>> report = cloexec_pipe();
  if (!stdio || !go || !report) return spawn_error();
  std::vector<char*> argv = c_strings(spawn.argv);
  std::vector<char*> envp = c_strings({});
  const ChildPlan plan{
      spawn.path.c_str(), argv.data(),
      envp.data(),        {(*stdio)[0].get(), (*stdio)[1].get(), (*stdio)[2].get()},
      (*go)[0].get(),     (*report)[1].get()};
  const pid_t pid = clone_child(plan, spawn.namespaces);
  if (pid < 0) return spawn_error();
  ChildProcess child(pid);  // from here every failure kills and reaps it
  (*report)[1].reset();
  if ((spawn.namespaces & CLONE_NEWUSER) != 0 && !write_id_maps(pid)) return spawn_error();
  if (write((*go)[1].get(), "g", 1) != 1) return spawn_error();
  int exec_error = 0;
  ssize_t got;
  do {
    got = read((*report)[0].get(), &exec_error, sizeof exec_error);
  } while (got < 0 && errno == EINTR);
  if (got != 0) return spawn_error();  // execve failed (or the report pipe did)
  return child;
}

bool isolation_works(const std::string& worker_path) {
  UniqueFd null(open("/dev/null", O_RDWR | O_CLOEXEC));
  if (!null.valid()) return false;
  Result<ChildProcess> child = spawn_in_namespaces({.path = worker_path,
                                                    .argv = {worker_path, "--probe", "--isolated"},
                                                    .stdio = {null.get(), null.get(), null.get()},
                                                    .namespaces = isolation_namespaces()});
  if (!child.ok()) return false;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (std::chrono::steady_clock::now() < deadline) {
    if (std::optional<ExitStatus> status = child->try_reap()) return status->exit_code == 0;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return false;  // the owner kills and reaps it
}

}  // namespace codemode::internal
