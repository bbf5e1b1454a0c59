// What codemode-bench found: for each subject configuration (codemode per spawn mode, isolation
// profile and engine profile, then the baselines) its status and its measurements, summarized as
// rows with ratios against the baselines and the targets (docs/performance.md, "Round two").
// Printed as a table and written as JSON.
#ifndef CODEMODE_BENCH_PERF_REPORT_H_
#define CODEMODE_BENCH_PERF_REPORT_H_

#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "codemode/json.h"

#include "perf/measurement.h"

namespace codemode::perf {

enum class RunStatus { kRan, kSkipped };

struct Configuration {
  std::string subject;    // "codemode", "floor", "quickjs", "isolated_vm", ...
  std::string spawn;      // codemode: "fork_server" / "exec" as asked; empty for baselines
  std::string isolation;  // codemode: "process" / "isolated" as asked; empty for baselines
  std::string engine;     // codemode: "interpreter" / "jit" as asked; empty for baselines
  RunStatus status = RunStatus::kRan;
  std::string skip_reason;
  std::vector<Measurement> measurements;

  // "codemode exec/process", "codemode fork_server/process/jit", "quickjs"
  std::string label() const;
};

struct BenchReport {
  Json options;  // what was asked, as given
  std::vector<Configuration> configurations;
  double wall_seconds = 0;

  // Every execution of every ran configuration succeeded.
  bool all_succeeded() const;
};

Json to_json(const BenchReport& report);
void print_table(const BenchReport& report, std::FILE* out);

}  // namespace codemode::perf

#endif  // CODEMODE_BENCH_PERF_REPORT_H_
