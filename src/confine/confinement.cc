// The composition of the confinement layers: the one place that fixes their order. Each layer
// lives in its own file; this file says why each comes where it does.
#include "confine/confinement.h"

#include <optional>
#include <set>
#include <string_view>

#include <unistd.h>

#include "confine/capabilities.h"
#include "confine/fds.h"
#include "confine/namespaces.h"
#include "confine/process_attributes.h"
#include "confine/rlimits.h"
#include "confine/seccomp_policy.h"

namespace codemode::confine {
namespace {

std::string join_fds(const std::vector<int>& fds) {
  std::string out;
  for (int fd : fds) out += (out.empty() ? "" : ",") + std::to_string(fd);
  return out;
}

std::string describe_rlimits(const ConfinementPlan& plan) {
  std::string out;
  for (const RlimitRule& row : worker_rlimits(plan)) {
    std::string_view name = row.rule;
    name.remove_prefix(std::string_view("rlimit_").size());
    out += (out.empty() ? "" : ",") + std::string(name) + ":" + std::to_string(row.soft);
    if (row.hard != row.soft) out += "/" + std::to_string(row.hard);
  }
  return out;
}

// Distinct calls, not rows: futex has one row per allowed command.
std::size_t allowed_call_count(EngineProfile engine) {
  std::set<std::string_view> names;
  for (const SyscallDecision& row : worker_allowed_syscalls(engine)) names.insert(row.name);
  return names.size();
}

}  // namespace

Status confine_worker(const ConfinementPlan& plan) {
  // Read before anything changes: the parent-death check compares against the parent we had
  // when confinement began.
  const pid_t parent = getppid();
  // Decided before any layer is applied, so a policy that cannot be built fails while nothing has
  // changed yet. A fork server compiled it once, before forking (plan.seccomp_program).
  std::optional<SeccompProgram> compiled_here;
  if (!plan.seccomp_program) {
    Result<SeccompProgram> program = compile_worker_seccomp_program(plan.engine);
    if (!program.ok()) return program.error();
    compiled_here = std::move(*program);
  }
  const SeccompProgram& program = plan.seccomp_program ? *plan.seccomp_program : *compiled_here;
  // 0. The isolated profile's namespaces, set up when the process was created and its root
  //    emptied once its files were loaded: checked first, as the check opens the root directory.
  if (plan.isolated) {
    if (Status isolated = check_isolation(); !isolated.ok()) return isolated;
  }
  // 1. fds first: nothing later opens a file for us, RLIMIT_NOFILE below is sized for what stays,
  //    and the check reads /proc/self/fd, which the filter would forbid.
  if (Status closed = close_other_fds(plan.keep_fds); !closed.ok()) return closed;
  // 2. rlimits before the filter, which denies setrlimit and prlimit64.
  if (Status lowered = apply_worker_rlimits(plan); !lowered.ok()) return lowered;
  // 3. Capabilities: dropped before the worker's threads existed (capset acts on one thread);
  //    checked here, before the filter, which denies capget.
  if (Status dropped = check_capabilities_dropped(); !dropped.ok()) return dropped;
  // 4. Process attributes before the filter, which denies prctl and personality; no_new_privs is
  //    also what lets an unprivileged process load a filter at all.
  if (Status set = apply_process_attributes(parent); !set.ok()) return set;
  // 5. The filter last: it denies the calls made above. The caller's threads and engine warm-ups
  //    already exist; TSYNC puts the filter on every one of them at once.
  return apply_seccomp_program(program);
}

std::string describe_confinement(const ConfinementPlan& plan) {
  return "confinement: namespaces=" +
         std::string(plan.isolated ? "user,pid,net,mount,ipc,uts,empty_root" : "none") +
         " fds=keep:" + join_fds(plan.keep_fds) + " rlimits=" + describe_rlimits(plan) +
         " capabilities=none "
         "attributes=no_new_privs,not_dumpable,no_read_implies_exec,pdeathsig:SIGKILL" +
         " seccomp=allow:" + std::to_string(allowed_call_count(plan.engine)) +
         (plan.engine == EngineProfile::kJit ? ",exec_memory:w^x" : ",exec_memory:none") +
         ",denials_listed:" + std::to_string(worker_denied_syscalls().size()) +
         ",default:kill_process,tsync";
}

}  // namespace codemode::confine
