// ChildProcess owns one child process: destroying it kills the child with SIGKILL and reaps it, so
// no path (success, failure, cancellation, an exception) leaves a zombie or a running orphan
// (Chromium's ScopedProcess). spawn_child starts a program with its stdin, stdout and stderr on
// pipes and nothing else inherited. Both the sandbox's workers and command tools use them.
//
// A child spawned with its own process group (command tools, downstream MCP servers: host programs
// that may start children of their own) leads that group, and its ChildProcess ends the whole
// group, not only the leader: kill() signals the group, and reaping an exited leader kills the
// group first. So nothing the child started outlives it, whether it ended by itself, by a timeout,
// a cancellation or its owner's destruction. The limit: a descendant that calls setsid() or
// setpgid() leaves the group and is not reached (the child is the host's configured program, so
// that is the host's program escaping, not the model's).
//
// Why the group is signalled before its leader is reaped, always: a process group id is the
// leader's pid, and while the leader is unreaped (running or a zombie) that number cannot be
// given to another process, so kill(-pgid) reaches our group and nothing else. Once the leader is
// reaped and the group's last member is gone, the number may become an unrelated process's group.
//
// Thread-safety: a ChildProcess is used from one thread at a time. kill() is not called from other
// threads unless the owner joins them before it reaps: reaping frees the pid (and the group id)
// for reuse, so a signal may only be sent while the child is known to be unreaped.
#ifndef CODEMODE_CORE_PROCESS_CHILD_PROCESS_H_
#define CODEMODE_CORE_PROCESS_CHILD_PROCESS_H_

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <sys/types.h>

#include "codemode/error.h"

#include "core/process/unique_fd.h"

namespace codemode::internal {

// A wait status from wait4(2), reduced to what codemode looks at.
struct ExitStatus {
  std::optional<int> exit_code;  // set when the child called exit
  std::optional<int> signal;     // set when a signal ended it
  // The CPU time (user + system, all its threads) the child used, from wait4's rusage: evidence
  // the kernel keeps, which nothing the child does can raise without spending it.
  std::int64_t cpu_micros = 0;
};

class ChildProcess {
 public:
  // kOwn: the child leads its own process group (its pid is the group's id), which is ended with
  // it. kShared: only the child itself is signalled.
  enum class Group { kShared, kOwn };

  ChildProcess() = default;
  // Takes ownership of the unreaped child `pid`.
  explicit ChildProcess(pid_t pid, Group group = Group::kShared)
      : pid_(pid), own_group_(group == Group::kOwn) {}
  ChildProcess(ChildProcess&& other) noexcept;
  ChildProcess& operator=(ChildProcess&& other) noexcept;
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;
  // Kills and reaps.
  ~ChildProcess() { kill_and_reap(); }

  pid_t pid() const { return pid_; }
  // Whether a child is owned and not yet reaped.
  bool owned() const { return pid_ > 0; }

  // Sends SIGKILL (to the child and, with Group::kOwn, to its whole group) unless the child was
  // reaped already. Idempotent.
  void kill() const;
  // Reaps the child if it has exited, without blocking. Its status once reaped, else nullopt.
  // With Group::kOwn, what is left of its group is killed before the leader is reaped.
  std::optional<ExitStatus> try_reap();
  // SIGKILL, then waits for the child (waitpid, EINTR retried). Its status, or nullopt when there
  // was no child or it could not be waited for (a host that set SIGCHLD to SIG_IGN reaps children
  // itself). Idempotent: later calls return nullopt.
  std::optional<ExitStatus> kill_and_reap();

 private:
  std::optional<ExitStatus> wait(int options);
  pid_t pid_ = -1;  // -1: none, or reaped
  bool own_group_ = false;
};

struct SpawnOptions {
  std::string path;               // the program to execute; absolute
  std::vector<std::string> argv;  // argv[0] included
  // "NAME=value" entries; empty means an empty environment.
  std::vector<std::string> env;
  // kPipe: the child's stderr is a pipe the caller reads; kDiscard: /dev/null.
  enum class Stderr { kPipe, kDiscard } stderr_mode = Stderr::kPipe;
  // The child's working directory (absolute); empty: the parent's.
  std::string cwd;
  // kOwn: the child is made the leader of a new process group before it executes the program
  // (so even its first instruction runs in it), and its ChildProcess ends the group.
  ChildProcess::Group group = ChildProcess::Group::kShared;
  // kKill: the child gets SIGKILL when the thread that called spawn_child exits, and so when this
  // process dies, however it dies (a SIGKILL included): PR_SET_PDEATHSIG, armed before the program
  // starts (src/core/process/clone_exec.h). REQUIRES: the calling thread outlives the child, as one
  // that waits for it does: the signal follows the thread, not the process. Only the child is
  // bound: what it starts is not, and neither is a set-user-ID program (execve clears the setting).
  enum class ParentDeath { kIgnore, kKill } parent_death = ParentDeath::kIgnore;
};

// A started child and the parent's ends of its pipes. The parent's ends are close-on-exec and
// non-blocking. Members are declared so that the child is killed and reaped before its pipes close.
struct SpawnedChild {
  UniqueFd stdin_fd;   // write end of the child's fd 0
  UniqueFd stdout_fd;  // read end of the child's fd 1
  UniqueFd stderr_fd;  // read end of the child's fd 2; invalid with Stderr::kDiscard
  ChildProcess process;
};

// A child's three stdio pipes, made before the child: the child's ends (blocking, close-on-exec,
// numbered above 2 so they can be dup2'd onto 0, 1 and 2 in any order) and the parent's ends
// (non-blocking, close-on-exec), as spawn_child makes them. For launchers that create the child
// some other way (the fork server, a clone into new namespaces).
struct StdioPipes {
  std::array<UniqueFd, 3> child_ends;  // the read end of stdin, the write ends of stdout, stderr
  UniqueFd stdin_fd;                   // the parent's ends, as in SpawnedChild
  UniqueFd stdout_fd;
  UniqueFd stderr_fd;
};

// nullopt when the kernel refuses a pipe (out of fds).
std::optional<StdioPipes> make_stdio_pipes();

// Starts `options.path` with fds 0, 1 and 2 on fresh pipes, every other fd closed, every signal
// at its default disposition and none blocked: with posix_spawn, or with ParentDeath::kKill by
// clone_exec, which does the same by hand and arms the parent-death signal too. TOOL_FAILED (rule
// "spawn_failed") when the pipes or the process cannot be made, or the program cannot be executed;
// nothing is left behind then.
Result<SpawnedChild> spawn_child(const SpawnOptions& options);

// ExitStatus of a raw waitpid status.
ExitStatus exit_status_from_wait(int wait_status);

}  // namespace codemode::internal

#endif  // CODEMODE_CORE_PROCESS_CHILD_PROCESS_H_
