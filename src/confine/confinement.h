// The worker's process confinement, applied by the worker to itself, in one fixed order, after
// its own threads and engine warm-ups exist and before the program is compiled. Each layer lives
// in its own file in this folder; confine_worker composes them. Fails closed: the first layer that
// does not take effect stops the worker (the parent reports UNSUPPORTED_PROFILE or sandbox_error);
// nothing is ever skipped with a warning.
#ifndef CODEMODE_CONFINE_CONFINEMENT_H_
#define CODEMODE_CONFINE_CONFINEMENT_H_

#include <cstdint>
#include <string>
#include <vector>

#include "codemode/error.h"
#include "codemode/process_adapter.h"

#include "confine/seccomp_policy.h"

namespace codemode::confine {

struct ConfinementPlan {
  // File descriptors that stay open (the IPC pipes: 0, 1, 2). Every other fd is closed.
  std::vector<int> keep_fds{0, 1, 2};
  // RLIMIT_DATA: the program's memoryBytes plus the interpreter's fixed base.
  std::uint64_t data_limit_bytes = 0;
  // RLIMIT_AS, the backstop behind RLIMIT_DATA for what it does not count (read-only and
  // inaccessible mappings, whose page tables still cost memory): the address space the worker
  // had mapped once prepared (libraries, the engine's reservations, the JIT's code region), plus
  // the data limit, plus room for thread stacks and malloc's arena reservations. Never below
  // data_limit_bytes.
  std::uint64_t address_space_limit_bytes = 0;
  // RLIMIT_CPU backstop, in whole seconds (the watchdog stops the program long before).
  std::uint64_t cpu_limit_seconds = 0;
  // The isolated profile: the namespaces and the empty root are in place already (namespaces.h)
  // and are checked first.
  bool isolated = false;
  // The JIT engine profile: the seccomp filter also lets memory become executable (never writable
  // and executable at once). Every other layer is the same.
  EngineProfile engine = EngineProfile::kInterpreter;
  // The filter for `engine`, compiled before the fork (the fork server's copy); null: compiled
  // here. Borrowed.
  const SeccompProgram* seccomp_program = nullptr;
};

// Applies every layer: for the isolated profile the namespaces check first, then fds, rlimits,
// the capabilities check (dropped earlier by drop_capabilities, capabilities.h, before any
// thread), process attributes (no-new-privs, not dumpable, parent-death signal), then the
// seccomp allow-list last (all threads). Returns the first failure.
Status confine_worker(const ConfinementPlan& plan);

// One line listing each layer and its state, for debug logs (no paths, no secrets).
std::string describe_confinement(const ConfinementPlan& plan);

}  // namespace codemode::confine

#endif  // CODEMODE_CONFINE_CONFINEMENT_H_
