// Layer: resource limits. Stops a program that escapes the engine's own accounting from taking the
// host's memory, CPU, fds or disk, from dumping its memory to a core file, and from creating tasks.
#include "confine/rlimits.h"

#include <algorithm>
#include <charconv>
#include <limits>

#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include "codemode/rules.h"

#include "confine/confine_error.h"
#include "core/process/unique_fd.h"

namespace codemode::confine {
namespace {

constexpr std::string_view kLayer = "rlimits";

// Nothing is opened after start-up; 16 leaves room above the three IPC pipes for whatever else a
// caller keeps (test harness pipes) without allowing a table of stolen handles.
constexpr std::uint64_t kMaxOpenFds = 16;

std::uint64_t plus_one_second(std::uint64_t seconds) {
  return seconds == std::numeric_limits<std::uint64_t>::max() ? seconds : seconds + 1;
}

bool same_limit(const rlimit& a, const rlimit& b) {
  return a.rlim_cur == b.rlim_cur && a.rlim_max == b.rlim_max;
}

Status lower_one(const RlimitRule& row) {
  rlimit current{};
  if (getrlimit(row.resource, &current) != 0) return confinement_failed(kLayer, row.rule);
  rlimit lowered{};
  lowered.rlim_max = std::min<rlim_t>(current.rlim_max, row.hard);
  lowered.rlim_cur = std::min<rlim_t>({current.rlim_cur, row.soft, lowered.rlim_max});
  if (setrlimit(row.resource, &lowered) != 0) return confinement_failed(kLayer, row.rule);
  rlimit after{};
  if (getrlimit(row.resource, &after) != 0 || !same_limit(after, lowered)) {
    return confinement_failed(kLayer, row.rule);
  }
  return {};
}

}  // namespace

std::optional<std::uint64_t> mapped_address_space_bytes() {
  // /proc/self/statm's first field: the whole virtual size, in pages (proc(5)).
  const internal::UniqueFd statm(::open("/proc/self/statm", O_RDONLY | O_CLOEXEC));
  char text[128];
  const ssize_t got = statm.valid() ? ::read(statm.get(), text, sizeof text) : -1;
  if (got <= 0) return std::nullopt;
  std::uint64_t pages = 0;
  const auto [end, error] = std::from_chars(text, text + got, pages);
  const long page_size = sysconf(_SC_PAGESIZE);
  if (error != std::errc() || end == text || page_size <= 0) return std::nullopt;
  return pages * static_cast<std::uint64_t>(page_size);
}

std::array<RlimitRule, kWorkerRlimitCount> worker_rlimits(const ConfinementPlan& plan) {
  const std::uint64_t data = plan.data_limit_bytes;
  const std::uint64_t address_space = plan.address_space_limit_bytes;
  const std::uint64_t cpu = plan.cpu_limit_seconds;
  return {{
      {RLIMIT_DATA, rules::kRlimitData, data, data,
       "the real memory cap: the GC heap limit misses typed arrays, strings and Maps"},
      {RLIMIT_AS, rules::kRlimitAs, address_space, address_space,
       "backstop for mappings RLIMIT_DATA does not count, and the page tables behind them"},
      {RLIMIT_CPU, rules::kRlimitCpu, cpu, plus_one_second(cpu),
       "backstop behind the watchdog: SIGXCPU at the soft limit, SIGKILL a second later"},
      {RLIMIT_NOFILE, rules::kRlimitNofile, kMaxOpenFds, kMaxOpenFds,
       "nothing is opened after start-up; room for the IPC pipes only"},
      {RLIMIT_FSIZE, rules::kRlimitFsize, 0, 0,
       "no regular file may grow (SIGXFSZ); writes to the IPC pipes are not affected"},
      {RLIMIT_CORE, rules::kRlimitCore, 0, 0,
       "a crash must not write program data or tool results to a core file"},
      // RLIMIT_NPROC counts every task of the real uid, not this process's children, so a small
      // positive value would be no budget at all; 0 means "this process creates no task" (clone
      // and fork fail with EAGAIN), a second wall behind seccomp's kill. The host's root user is
      // exempt even without capabilities (the kernel checks the uid), so for a root worker the
      // filter is the only wall; the docker adapter's pids limit is the per-worker budget.
      {RLIMIT_NPROC, rules::kRlimitNproc, 0, 0,
       "no new task: all threads exist before confinement, processes are never needed"},
      {RLIMIT_MEMLOCK, rules::kRlimitMemlock, 0, 0,
       "no memory pinned out of the host's reach for reclaim"},
      {RLIMIT_MSGQUEUE, rules::kRlimitMsgqueue, 0, 0,
       "no POSIX message-queue memory charged to the host's user"},
  }};
}

Status lower_rlimits(std::span<const RlimitRule> rules) {
  for (const RlimitRule& row : rules) {
    if (Status lowered = lower_one(row); !lowered.ok()) return lowered;
  }
  return {};
}

Status apply_worker_rlimits(const ConfinementPlan& plan) {
  // A zero here is a caller's mistake; applying it would kill the worker at its first allocation
  // or first second of CPU, which the parent could not tell from a program's fault.
  if (plan.data_limit_bytes == 0) return confinement_failed(kLayer, "rlimit_data");
  if (plan.cpu_limit_seconds == 0) return confinement_failed(kLayer, "rlimit_cpu");
  if (plan.address_space_limit_bytes < plan.data_limit_bytes) {
    return confinement_failed(kLayer, "rlimit_as");
  }
  const auto rules = worker_rlimits(plan);
  return lower_rlimits(rules);
}

}  // namespace codemode::confine
