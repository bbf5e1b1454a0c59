#include "sandbox/process/isolation_probe.h"

#include <fstream>
#include <string_view>

#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "codemode/process_adapter.h"

#include "core/process/block_all_signals.h"
#include "core/process/child_process.h"
#include "sandbox/process/isolation_spawn.h"
#include "sandbox/process/process_adapter_impl.h"

namespace codemode {
namespace internal {
namespace {

std::optional<long> read_sysctl(const char* path) {
  std::ifstream file(path);
  long value = 0;
  if (!(file >> value)) return std::nullopt;
  return value;
}

// A child in new `namespaces` that exits at once: 0 when the kernel made it, else clone's errno.
int clone_errno(int namespaces) {
  long pid = 0;
  int error = 0;
  {
    const BlockAllSignals blocked;  // no handler of the host may run in the child
    pid = syscall(SYS_clone, static_cast<unsigned long>(namespaces) | SIGCHLD, nullptr, nullptr,
                  nullptr, 0);
    if (pid == 0) _exit(0);
    error = errno;
  }
  if (pid < 0) return error;
  ChildProcess(static_cast<pid_t>(pid)).kill_and_reap();
  return 0;
}

Error unavailable(std::string_view why) {
  return Error::unsupported_profile(
      "sandbox_unavailable",
      "The isolated profile cannot run on this machine: " + std::string(why) +
          " (docs/security.md, \"Enabling user namespaces\").");
}

// What clone's error for a new user namespace means.
std::string user_namespace_refusal(int error) {
  switch (error) {
    case ENOSPC:
      return "the limit on user namespaces (user.max_user_namespaces) is reached";
    case EUSERS:
      return "user namespaces are nested too deep";
    case EINVAL:
      return "this kernel has no user namespaces (CONFIG_USER_NS)";
    case EPERM:
      return "the kernel refused a new user namespace (EPERM): a seccomp filter or security "
             "module denies it, as a container runtime's default profile does";
    default:
      return "the kernel refused a new user namespace (errno " + std::to_string(error) + ")";
  }
}

}  // namespace

IsolationFacts gather_isolation_facts(const std::string& worker_path) {
  IsolationFacts facts{
      .unprivileged_userns_clone = read_sysctl("/proc/sys/kernel/unprivileged_userns_clone"),
      .max_user_namespaces = read_sysctl("/proc/sys/user/max_user_namespaces"),
      .apparmor_restrict_unprivileged_userns =
          read_sysctl("/proc/sys/kernel/apparmor_restrict_unprivileged_userns"),
      .user_namespace_errno = clone_errno(CLONE_NEWUSER),
  };
  if (facts.user_namespace_errno == 0) facts.namespaces_errno = clone_errno(isolation_namespaces());
  if (facts.namespaces_errno == 0 && facts.user_namespace_errno == 0) {
    facts.worker_probe = isolation_works(worker_path);
  }
  return facts;
}

Status isolation_verdict(const IsolationFacts& facts) {
  if (facts.worker_probe) return {};
  if (facts.max_user_namespaces == 0) {
    return unavailable("user namespaces are switched off: user.max_user_namespaces is 0");
  }
  if (facts.unprivileged_userns_clone == 0 && facts.user_namespace_errno == EPERM) {
    return unavailable(
        "unprivileged user namespaces are disabled: kernel.unprivileged_userns_clone is 0");
  }
  if (facts.apparmor_restrict_unprivileged_userns == 1) {
    return unavailable(
        "AppArmor restricts unprivileged user namespaces: "
        "kernel.apparmor_restrict_unprivileged_userns is 1");
  }
  if (facts.user_namespace_errno != 0) {
    return unavailable(user_namespace_refusal(facts.user_namespace_errno));
  }
  if (facts.namespaces_errno != 0) {
    return unavailable(
        "a user namespace can be made, but not the pid, network, mount, IPC and "
        "UTS namespaces in it (errno " +
        std::to_string(facts.namespaces_errno) + ")");
  }
  return unavailable(
      "the namespaces can be made, but the worker's probe failed in them (it could not mount its "
      "empty root, or is not pid 1)");
}

}  // namespace internal

Status check_isolated_profile(const std::string& worker_path) {
  return internal::isolation_verdict(
      internal::gather_isolation_facts(internal::absolute_worker_path(worker_path)));
}

}  // namespace codemode
