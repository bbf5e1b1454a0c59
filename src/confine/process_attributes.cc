// Layer: process attributes. Stops privilege gain through set-uid or file capabilities
// (no_new_privs), reading or tracing the worker from another process of the same user (not
// dumpable), PROT_READ memory silently becoming executable (READ_IMPLIES_EXEC), and a worker
// outliving the executor that started it (parent-death signal).
#include "confine/process_attributes.h"

#include <csignal>
#include <string_view>

#include <sys/personality.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "confine/confine_error.h"

namespace codemode::confine {
namespace {

constexpr std::string_view kLayer = "process_attributes";

// personality(2) with this value only queries the current persona.
constexpr unsigned long kQueryPersonality = 0xffffffff;

bool set_no_new_privs() {
  return prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0 && prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) == 1;
}

bool set_not_dumpable() {
  return prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) == 0 && prctl(PR_GET_DUMPABLE, 0, 0, 0, 0) == 0;
}

// The seccomp layer forbids PROT_EXEC in mmap/mprotect; with READ_IMPLIES_EXEC the kernel would
// add PROT_EXEC to every PROT_READ mapping after the filter looked.
bool clear_read_implies_exec() {
  const int persona = personality(kQueryPersonality);
  if (persona == -1) return false;
  if ((persona & READ_IMPLIES_EXEC) == 0) return true;
  if (personality(static_cast<unsigned long>(persona) & ~READ_IMPLIES_EXEC) == -1) return false;
  return (personality(kQueryPersonality) & READ_IMPLIES_EXEC) == 0;
}

// PR_SET_PDEATHSIG fires when the parent *thread* that forked us exits, so the executor must fork
// from a thread that outlives the worker.
bool set_parent_death_signal() {
  int armed = 0;
  return prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) == 0 &&
         prctl(PR_GET_PDEATHSIG, &armed, 0, 0, 0) == 0 && armed == SIGKILL;
}

}  // namespace

Status apply_process_attributes(pid_t expected_parent) {
  if (!set_no_new_privs()) return confinement_failed(kLayer, "no_new_privs");
  if (!set_not_dumpable()) return confinement_failed(kLayer, "not_dumpable");
  if (!clear_read_implies_exec()) return confinement_failed(kLayer, "read_implies_exec");
  if (!set_parent_death_signal()) return confinement_failed(kLayer, "parent_death_signal");
  // Checked after arming: if the parent died before, we were reparented and the signal never
  // comes; if it dies after, the signal does.
  if (getppid() != expected_parent) return confinement_failed(kLayer, "parent_died");
  return {};
}

}  // namespace codemode::confine
