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

// Resident memory may grow this much between the warm-up and the end without counting as a leak.
// Why 4 MiB (docs/soak.md): glibc keeps freed memory in per-thread arenas and trims them lazily,
// and the executor deliberately remembers the last 100,000 execution ids (about 100 bytes each),
// so a leak-free run still grows by a few hundred KiB to ~2 MiB over 10,000 executions; a real
// leak of even 400 bytes per execution crosses 4 MiB within 10,000.
inline constexpr std::size_t kRssToleranceKib = 4096;

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
