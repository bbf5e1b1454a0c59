// Layer: process attributes (prctl(2) and personality(2) flags). Makes the worker unable to gain
// privileges, unreadable and untraceable by other processes of the same user, and dead as soon as
// its parent dies.
#ifndef CODEMODE_CONFINE_PROCESS_ATTRIBUTES_H_
#define CODEMODE_CONFINE_PROCESS_ATTRIBUTES_H_

#include <sys/types.h>

#include "codemode/error.h"

namespace codemode::confine {

// Sets each attribute and reads it back with its PR_GET_* twin, in this order:
//   PR_SET_NO_NEW_PRIVS 1         rule "no_new_privs" (mandatory, never a warning)
//   PR_SET_DUMPABLE 0             rule "not_dumpable"
//   no READ_IMPLIES_EXEC          rule "read_implies_exec" (cleared if an ELF quirk set it)
//   PR_SET_PDEATHSIG SIGKILL      rule "parent_death_signal"
//   getppid() == expected_parent  rule "parent_died": the parent may have died before the
//                                 signal was armed, and then no signal will ever come.
// no_new_privs is a per-thread flag: this sets it on the calling thread, and loading the seccomp
// filter with TSYNC copies it to every other thread.
// `expected_parent` is getppid() as seen before confinement began. Must run before the seccomp
// layer (which denies prctl and personality); PR_SET_NO_NEW_PRIVS is also what lets an
// unprivileged process load a seccomp filter at all.
[[nodiscard]] Status apply_process_attributes(pid_t expected_parent);

}  // namespace codemode::confine

#endif  // CODEMODE_CONFINE_PROCESS_ATTRIBUTES_H_
