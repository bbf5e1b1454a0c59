// The parent's side of the isolated profile's namespaces (the child's side is
// src/confine/namespaces.h): starting a program in new namespaces and writing its uid and
// gid maps, and the availability probe. Also used, without namespaces, to start the fork server
// with its socket on fd 0.
//
// A process cannot make itself pid 1, and a multi-threaded one cannot enter a new user or mount
// namespace, so the namespaces are made when the process is created: clone(2) with the CLONE_NEW*
// flags. The new user namespace maps uid 0 and gid 0 inside to the caller's effective uid and gid
// outside (the one mapping an unprivileged process may write, after "deny" to setgroups), so the
// program runs as root inside and keeps its capabilities across execve, which it needs to mount
// its empty root. Outside, it holds no privilege the caller did not have.
//
// Thread-safety: the functions are thread-safe.
#ifndef CODEMODE_SANDBOX_PROCESS_ISOLATION_SPAWN_H_
#define CODEMODE_SANDBOX_PROCESS_ISOLATION_SPAWN_H_

#include <array>
#include <string>
#include <vector>

#include "codemode/error.h"

#include "core/process/child_process.h"

namespace codemode::internal {

// The namespaces of the isolated profile, but the pid namespace: the fork server lives in these,
// and each of its children gets a pid namespace of its own.
int isolation_namespaces_without_pid();
// All of them: an executed isolated worker, pid 1 of its own pid namespace.
int isolation_namespaces();

struct NamespacedSpawn {
  std::string path;               // absolute
  std::vector<std::string> argv;  // argv[0] included; the environment is empty
  // The child's fds 0, 1 and 2 (the caller keeps owning them). Every other fd is closed in the
  // child and every signal is at its default action, unblocked.
  std::array<int, 3> stdio{-1, -1, -1};
  // CLONE_NEW* flags, or 0. With CLONE_NEWUSER the uid and gid maps are written before the child
  // executes the program.
  int namespaces = 0;
};

// Starts the program; the child is the caller's, killed and reaped by the returned owner.
// TOOL_FAILED, rule "spawn_failed", when the kernel refuses the namespaces, the maps cannot be
// written or the program cannot be executed; nothing is left running then.
Result<ChildProcess> spawn_in_namespaces(const NamespacedSpawn& spawn);

// Whether this kernel and this process may use the isolated profile: `worker_path --probe
// --isolated`, started in every namespace of isolation_namespaces(), empties its root and
// checks it is pid 1, within a few seconds.
bool isolation_works(const std::string& worker_path);

}  // namespace codemode::internal

#endif  // CODEMODE_SANDBOX_PROCESS_ISOLATION_SPAWN_H_
