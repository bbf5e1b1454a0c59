// The soak's report: outcomes by (status, code, rule) against what the plan expects, each kind's
// count, throughput, and the leak figures; printed as a table, and optionally as JSON. judge()
// decides pass or fail: any unexpected outcome, or any leak figure over its tolerance, fails.
#ifndef CODEMODE_BENCH_SOAK_REPORT_H_
#define CODEMODE_BENCH_SOAK_REPORT_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include <sys/types.h>

#include "codemode/json.h"

#include "soak/kinds.h"
#include "soak/tally.h"

namespace codemode::soak {

// How much resident memory may grow between the warm-up and the end without counting as a leak:
// kRssSlackKib plus kRssBytesPerExecution for each execution after the warm-up, up to
// kRememberedExecutionIds of them. Why (docs/soak.md): the executor deliberately remembers the
// last 100,000 execution ids (ExecutionRegistry: about 110 bytes each, measured), so a leak-free
// parent grows with every execution until that window is full; and glibc keeps freed memory in
// per-thread arenas and trims them lazily, which the fixed slack absorbs. A leak of a few hundred
// bytes per execution still fails a 10,000-execution soak.
inline constexpr std::size_t kRssSlackKib = 2048;
inline constexpr std::size_t kRssBytesPerExecution = 128;
inline constexpr std::size_t kRememberedExecutionIds = 100'000;
std::size_t rss_tolerance_kib(std::size_t executions_after_warmup);

struct SoakSettings {
  std::size_t executions = 0;
  int concurrency = 0;
  std::uint64_t seed = 0;
  std::size_t warmup = 0;  // executions before the "after warm-up" figures
};

struct LeakFigures {
  std::optional<std::size_t> rss_after_warmup_kib;
  std::optional<std::size_t> rss_end_kib;
  // False under AddressSanitizer, whose quarantine holds freed memory on purpose: RSS is reported
  // but not judged there (LeakSanitizer judges leaks at exit instead).
  bool rss_judged = true;
  std::size_t fds_at_start = 0;  // reported only: lazily made process-wide state comes after it
  std::size_t fds_after_warmup = 0;
  std::size_t fds_end = 0;
  std::vector<pid_t> processes_left;
  std::vector<std::string> private_tmp_left;  // entries of the soak's own TMPDIR
  std::vector<std::string> shared_tmp_left;   // new "codemode" entries of /tmp and /dev/shm
};

struct SoakReport {
  SoakSettings settings;
  double seconds = 0;  // all executions, warm-up included
  std::vector<std::size_t> planned_by_kind;
  TallySnapshot tally;
  LeakFigures leaks;
};

struct Verdict {
  bool outcomes = true;
  bool rss = true;
  bool fds = true;
  bool processes = true;
  bool temp_files = true;
  bool passed() const { return outcomes && rss && fds && processes && temp_files; }
};

Verdict judge(const SoakReport& report);
void print_report(std::ostream& out, const SoakReport& report, const std::vector<SoakKind>& kinds);
Json report_json(const SoakReport& report, const std::vector<SoakKind>& kinds);

}  // namespace codemode::soak

#endif  // CODEMODE_BENCH_SOAK_REPORT_H_
