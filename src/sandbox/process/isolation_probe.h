// Why the isolated profile cannot run on this machine, in words an operator can act on. The
// adapter's own probe (isolation_works, isolation_spawn.h) only says whether; when it says no,
// this reads what the kernel shows without privilege (the sysctls that switch unprivileged user
// namespaces off, what clone(2) answers for a user namespace and for all the profile's
// namespaces) and names the first thing missing. docs/security.md, "Enabling user namespaces",
// says how to enable each.
//
// Decide apart from gather: isolation_verdict is a pure function of the facts, so every case is
// tested with facts no test machine can be put in.
//
// Thread-safety: the functions are thread-safe.
#ifndef CODEMODE_SANDBOX_PROCESS_ISOLATION_PROBE_H_
#define CODEMODE_SANDBOX_PROCESS_ISOLATION_PROBE_H_

#include <optional>
#include <string>

#include "codemode/error.h"

namespace codemode::internal {

struct IsolationFacts {
  // Each sysctl's value where this kernel has it (nullopt: no such file, or unreadable).
  std::optional<long> unprivileged_userns_clone;              // kernel.unprivileged_userns_clone
  std::optional<long> max_user_namespaces;                    // user.max_user_namespaces, of the
                                                              // caller's user namespace
  std::optional<long> apparmor_restrict_unprivileged_userns;  // kernel.apparmor_restrict_...
  int user_namespace_errno = 0;  // clone(2) with CLONE_NEWUSER alone: 0 when it worked
  int namespaces_errno = 0;      // clone(2) with every namespace of the profile: 0 when it worked
  bool worker_probe = false;     // `codemode-worker --probe --isolated` succeeded in them
};

// The facts of this machine for this process; `worker_path` absolute.
IsolationFacts gather_isolation_facts(const std::string& worker_path);

// OK when the worker's probe succeeded; otherwise UNSUPPORTED_PROFILE, rule sandbox_unavailable,
// whose message names the first thing missing, in this order: user.max_user_namespaces is 0;
// kernel.unprivileged_userns_clone is 0 (and clone was refused); the AppArmor restriction is on;
// clone's own error for a user namespace (ENOSPC: the limit is reached; EINVAL: no user namespaces
// in this kernel; EPERM: a seccomp filter or security module refuses, as a container's default
// does); then for the other namespaces; then the worker's probe itself.
Status isolation_verdict(const IsolationFacts& facts);

}  // namespace codemode::internal

#endif  // CODEMODE_SANDBOX_PROCESS_ISOLATION_PROBE_H_
