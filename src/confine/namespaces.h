// Layer: namespaces and an empty root (the isolated profile). Stops an escaped worker from seeing
// any file (its root is an empty read-only tmpfs; the old root is detached), any network (a new
// network namespace has only a loopback interface, down), any other process (it is pid 1 of its
// own pid namespace), the host's IPC objects and host name, and from holding any privilege
// outside its own user namespace.
//
// Who does what (decided before, applied after, as nsjail's initNsFromParent / initNs):
//   - the parent creates the namespaces when it starts the process and writes its uid and gid maps
//     (src/sandbox/process/isolation_spawn.h), because an unprivileged process cannot make itself
//     pid 1 and a multi-threaded one cannot enter a new user namespace;
//   - the process, once every library and data file it needs is loaded (engine, self-hosted code,
//     time-zone and Intl data), calls enter_empty_root;
//   - confine_worker then checks the result (check_isolation), first of its layers.
// In fork-server mode the server is started in new user, network, mount, IPC and UTS namespaces,
// empties its root once, and creates each child in a new pid namespace.
#ifndef CODEMODE_CONFINE_NAMESPACES_H_
#define CODEMODE_CONFINE_NAMESPACES_H_

#include "codemode/error.h"

namespace codemode::confine {

// The most fds a process may hold once its root is empty: /proc is gone, so the fds layer proves
// what is open by probing every fd below this hard RLIMIT_NOFILE (fds.h), which no process in the
// user namespace can raise again (raising a hard limit needs CAP_SYS_RESOURCE in the initial user
// namespace).
inline constexpr int kEmptyRootMaxFds = 64;

// Closes every fd but 0, 1 and 2 (verified through /proc/self/fd while it is still there), lowers
// RLIMIT_NOFILE to kEmptyRootMaxFds, makes every mount private, mounts an empty read-only tmpfs,
// makes it the root (pivot_root) and detaches the old root. UNSUPPORTED_PROFILE with rules
// "namespaces_fds", "namespaces_nofile", "namespaces_mount", "namespaces_pivot_root",
// "namespaces_detach". REQUIRES: in a new mount namespace owned by a user namespace where the
// process has CAP_SYS_ADMIN; no other thread opens fds meanwhile.
[[nodiscard]] Status enter_empty_root();

// The check confine_worker makes for the isolated profile: this process is pid 1 of its pid
// namespace (rule "namespaces_pid") and its root directory holds nothing (rule "namespaces_root").
// Must run before the fds layer (it opens the root directory).
[[nodiscard]] Status check_isolation();

}  // namespace codemode::confine

#endif  // CODEMODE_CONFINE_NAMESPACES_H_
