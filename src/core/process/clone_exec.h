// clone_exec: starts a program the way spawn_child's posix_spawn does (the same fds, signals,
// process group and working directory), by hand, so that the child can also be bound to its
// parent's death before the program's first instruction: PR_SET_PDEATHSIG SIGKILL, then getppid()
// checked against the expected parent to close the race where the parent died first. posix_spawn
// cannot do that. spawn_child uses it for SpawnOptions::ParentDeath::kKill (command tools).
//
// Like glibc's posix_spawn, it clones with CLONE_VM | CLONE_VFORK onto a stack of its own: the
// child shares the parent's memory until execve (no page tables are copied, so the cost does not
// grow with the host's memory, as a fork's does) and the calling thread waits meanwhile. So between
// the clone and the execve the child makes only async-signal-safe calls, writes nothing but its
// own stack and the failure it reports, and is built without sanitizer instrumentation.
//
// PR_SET_PDEATHSIG follows the parent *thread*: the child is killed when the thread that called
// clone_exec exits, not only when the process dies. A caller that waits for the child on the same
// thread (run_command) always outlives it; one that hands the child to another thread must call
// this from a thread that lives as long as the child (src/sandbox/process/parent_thread.h).
//
// Thread-safety: may be called from any thread of a multi-threaded process.
#ifndef CODEMODE_CORE_PROCESS_CLONE_EXEC_H_
#define CODEMODE_CORE_PROCESS_CLONE_EXEC_H_

#include <array>

#include <sys/types.h>

namespace codemode::internal {

// Everything the child uses, prepared by the caller; borrowed for the call.
struct CloneExecPlan {
  const char* path;   // absolute
  char* const* argv;  // null-terminated
  char* const* envp;  // null-terminated
  // The child's fds 0, 1 and 2, each above 2 so the dup2s cannot overwrite one another (the
  // caller keeps owning them); stdio[2] == -1: /dev/null.
  std::array<int, 3> stdio{-1, -1, -1};
  const char* cwd = nullptr;      // chdir there before execve; nullptr: the caller's
  bool own_group = false;         // setpgid(0, 0): the child leads a new process group
  bool kill_with_parent = false;  // PR_SET_PDEATHSIG SIGKILL, the race closed with getppid()
};

// Starts the child: every signal at its default action and none blocked, fds 0..2 as planned and
// every other fd closed, then execve. Returns its pid once the program runs, or -1 when the clone
// failed or the child could not get as far as the program (a failed execve, setpgid, dup2 or
// chdir); then no child is left (it is reaped here).
pid_t clone_exec(const CloneExecPlan& plan);

}  // namespace codemode::internal

#endif  // CODEMODE_CORE_PROCESS_CLONE_EXEC_H_
