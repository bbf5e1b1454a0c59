// Layer: resource limits. Caps what the worker can consume even when the engine's own limits fail:
// memory (RLIMIT_DATA, with RLIMIT_AS behind it), CPU time, fds, file size, core dumps, new tasks,
// locked memory, message queues. The limits are a table of (resource, value, reason) rows, applied
// by one loop.
#ifndef CODEMODE_CONFINE_RLIMITS_H_
#define CODEMODE_CONFINE_RLIMITS_H_

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "codemode/error.h"

#include "confine/confinement.h"

namespace codemode::confine {

struct RlimitRule {
  int resource = 0;       // RLIMIT_*, as passed to setrlimit(2)
  std::string_view rule;  // "rlimit_data": the Error rule when this row cannot be applied
  std::uint64_t soft = 0;
  std::uint64_t hard = 0;
  std::string_view reason;  // one line: why the worker gets this value
};

inline constexpr std::size_t kWorkerRlimitCount = 9;

// The worker's limits for `plan`, in the order they are applied. Pure: no system call.
std::array<RlimitRule, kWorkerRlimitCount> worker_rlimits(const ConfinementPlan& plan);

// Lowers each limit to its row's values and never raises one: where the current soft or hard limit
// is already below the row, the current value stays. Each row is checked with getrlimit(2)
// afterwards; the first row that fails gives its rule.
[[nodiscard]] Status lower_rlimits(std::span<const RlimitRule> rules);

// The calling process's whole mapped address space (VmSize), read from /proc/self/statm; nullopt
// where /proc cannot be read. The worker measures it once it is prepared, to size RLIMIT_AS.
std::optional<std::uint64_t> mapped_address_space_bytes();

// Checks the plan (rules "rlimit_data", "rlimit_cpu" when a limit is 0, "rlimit_as" when the
// address space would not even hold the data limit) and lowers every limit in
// worker_rlimits(plan). Must run before the seccomp layer, which denies setrlimit and prlimit64.
[[nodiscard]] Status apply_worker_rlimits(const ConfinementPlan& plan);

}  // namespace codemode::confine

#endif  // CODEMODE_CONFINE_RLIMITS_H_
