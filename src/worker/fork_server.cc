#include "worker/fork_server.h"

#include <utility>

#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "confine/capabilities.h"
#include "protocol/fork_server_messages.h"
#include "worker/exit_codes.h"
#include "worker/worker.h"

namespace codemode::worker {
namespace {

constexpr int kServerSocketFd = 0;

// A server whose launcher's thread is gone has nobody to serve. Checked after arming: a parent
// that died before would never send the signal.
bool die_with_parent() {
  const pid_t parent = getppid();
  return prctl(PR_SET_PDEATHSIG, SIGKILL) == 0 && getppid() == parent;
}

// CLONE_PARENT: the child's parent is the launcher's process, which reaps it (the server has no
// children, so its own end leaves no zombie). The isolated profile gives every child a pid
// namespace of its own, where it is pid 1 (the server cannot be that init: an init may not use
// CLONE_PARENT). SIGCHLD is ignored with CLONE_PARENT (the child inherits the server's exit
// signal, which is SIGCHLD) but says what is meant.
unsigned long clone_flags(IsolationProfile isolation) {
  unsigned long flags = CLONE_PARENT | SIGCHLD;
  if (isolation == IsolationProfile::kIsolated) flags |= CLONE_NEWPID;
  return flags;
}

// A raw clone(2), not fork(3): glibc's fork has no way to pass CLONE_PARENT or CLONE_NEWPID. The
// child returns here with a copy of this single running thread; glibc's cached thread id in it
// stays the server's, which is why the watchdog names its CPU clock by gettid (watchdog.cc).
long clone_child(IsolationProfile isolation) {
  return syscall(SYS_clone, clone_flags(isolation), nullptr, nullptr, nullptr, 0);
}

// The name the binary started with, which each child takes back.
char (&worker_name())[16] {
  static char name[16] = {};
  return name;
}

// In the child: the worker's own name again, the three ends become fds 0, 1 and 2 (the socket on
// fd 0 is closed by the first dup2), then the worker's life goes on.
[[noreturn]] void become_child(Worker& worker, internal::ChildStdio stdio) {
  prctl(PR_SET_NAME, worker_name());
  for (int fd = 0; fd < static_cast<int>(stdio.size()); ++fd) {
    if (dup2(stdio[fd].get(), fd) != fd) _exit(kExitSandboxError);
  }
  for (internal::UniqueFd& end : stdio) end.reset();
  worker.live(Status{});
}

}  // namespace

bool take_fork_server_name() {
  return prctl(PR_GET_NAME, worker_name()) == 0 && prctl(PR_SET_NAME, kForkServerName) == 0;
}

void run_fork_server(WorkerProfile profile) {
  if (!die_with_parent()) _exit(kExitSandboxError);
  // Never destroyed: every child lives on its copy.
  auto* worker = new Worker(profile);
  if (!worker->prepare_and_isolate(/*every_program_profile=*/true).ok()) _exit(kExitSandboxError);
  // Children are clones of this thread: with its bounding set already empty, each child's own
  // capability drop is a few reads instead of a credential change per capability.
  if (!confine::drop_bounding_set().ok()) _exit(kExitSandboxError);
  worker->settle_before_fork();
  for (;;) {
    bool closed = false;
    Result<internal::ChildStdio> request = internal::receive_fork_request(kServerSocketFd, &closed);
    if (!request.ok()) _exit(closed ? kExitCompleted : kExitSandboxError);
    internal::ChildStdio stdio = std::move(*request);
    const long pid = clone_child(profile.isolation);
    if (pid == 0) become_child(*worker, std::move(stdio));
    const int clone_error = pid < 0 ? errno : 0;
    stdio = internal::ChildStdio{};  // the server's copies close; the child has its own
    if (!internal::send_fork_reply(kServerSocketFd, static_cast<pid_t>(pid), clone_error).ok()) {
      _exit(kExitSandboxError);
    }
  }
}

}  // namespace codemode::worker
