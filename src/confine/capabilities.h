// Layer: capabilities. Takes every Linux capability away from the worker, so a worker started as
// root (or as root of its own user namespace, the isolated profile) has no privilege beyond an
// ordinary user's: no CAP_SYS_RESOURCE to ignore its rlimits, no CAP_SYS_ADMIN, no CAP_KILL, no
// CAP_DAC_OVERRIDE, and nothing left to pass on to a program it could never execute anyway.
//
// Capabilities belong to each thread, and capset(2) and PR_CAPBSET_DROP change only the caller's,
// so every thread that exists drops its own (the worker's parked main thread included) before the
// worker starts the rest, which inherit the empty sets. The confinement check then reads the
// calling thread's sets back; a thread that kept its own would be a bug of the worker's start-up
// order, which its tests catch by reading every thread's sets in /proc.
#ifndef CODEMODE_CONFINE_CAPABILITIES_H_
#define CODEMODE_CONFINE_CAPABILITIES_H_

#include "codemode/error.h"

namespace codemode::confine {

// Empties the calling thread's ambient set, its bounding set (when it holds CAP_SETPCAP, which the
// kernel requires to change it: root, or root of a user namespace), then its inheritable,
// permitted and effective sets, and reads each back. Rule "capabilities" on any failure.
// Idempotent. Every other thread must drop its own, or be started afterwards.
[[nodiscard]] Status drop_capabilities();

// Empties the calling thread's bounding set when it holds CAP_SETPCAP, and nothing else: for the
// fork server, whose children inherit the empty set, so that their own drop_capabilities has no
// bounding capability left to drop (each drop commits new credentials, about 5% of a trivial
// execution as root). Its effective set stays: the isolated profile's clone(CLONE_NEWPID) needs
// CAP_SYS_ADMIN in the server's user namespace. Rule "capabilities" on failure.
[[nodiscard]] Status drop_bounding_set();

// Confinement check, part of confine_worker: the calling thread's effective, permitted,
// inheritable and ambient sets are empty, and so is the bounding set unless the process never
// held CAP_SETPCAP (an unprivileged user's full bounding set grants nothing: it only limits what
// an execve could add, and execve is forbidden twice over, by no_new_privs and the filter). Rule
// "capabilities" otherwise.
[[nodiscard]] Status check_capabilities_dropped();

}  // namespace codemode::confine

#endif  // CODEMODE_CONFINE_CAPABILITIES_H_
