// One row per (configuration, workload): the figures the table and the JSON print, the ratios of a
// codemode row to the baselines' rows for the same workload (measured in the same run), a jit
// row's speed-up over the interpreter row of the same configuration, and the targets
// (docs/performance.md, "Round two") checked against the codemode rows.
#ifndef CODEMODE_BENCH_PERF_SUMMARY_H_
#define CODEMODE_BENCH_PERF_SUMMARY_H_

#include <optional>
#include <string>
#include <vector>

#include "perf/report.h"
#include "perf/stats.h"

namespace codemode::perf {

struct Row {
  std::string configuration;              // Configuration::label()
  const Configuration* source = nullptr;  // points into the report it was made from
  std::string workload;
  std::size_t executions = 0;
  std::size_t succeeded = 0;
  std::string first_failure;
  std::optional<Distribution> latency_ms;  // the concurrency-1 pass
  std::optional<double> throughput_c1;     // executions per second
  std::optional<double> throughput_c2;
  std::optional<Distribution> call_span_us;  // the concurrency-1 pass
  std::size_t memory_processes = 0;          // processes the memory pass saw
  std::optional<Distribution> private_dirty_kib;
  std::optional<Distribution> peak_rss_kib;
  // codemode rows only: this row / the baseline's row for the same workload.
  std::optional<double> median_vs_quickjs;
  std::optional<double> throughput_c2_vs_quickjs;
  std::optional<double> median_vs_floor;  // trivial only
  std::optional<double> throughput_c2_vs_floor;
  std::optional<double> median_vs_isolated_vm;
  std::optional<double> throughput_c2_vs_isolated_vm;
  std::optional<double> median_vs_quickjs_inprocess;
  std::optional<double> throughput_c2_vs_quickjs_inprocess;
  // jit rows only, when the interpreter ran in the same spawn mode and isolation profile: its
  // median latency for the workload, and that / this row's (how many times faster the JIT is).
  std::optional<double> interpreter_median_ms;
  std::optional<double> jit_speedup_median;
  // MCP rows only (mcp_subject.h): the library's `trivial` row of the same spawn mode, isolation
  // and engine (for direct mode, which runs no worker, codemode mcp's default: fork_server,
  // process, interpreter): its median, and this row's median over it.
  std::optional<double> library_trivial_median_ms;
  std::optional<double> median_vs_library_trivial;
};

std::vector<Row> summarize(const BenchReport& report);

struct TargetCheck {
  std::string configuration;
  std::string name;        // "trivial_median_ms", ...
  std::string comparison;  // "<=" or ">="
  double target = 0;
  std::optional<double> measured;  // nullopt: the workload was not run

  std::optional<bool> met() const;
};

// The four performance targets, for every codemode configuration that ran, and the MCP one (a
// code-mode call at most 1.5x the library's trivial execution) for every mcp_code row
// (docs/performance.md, "Round two").
std::vector<TargetCheck> check_targets(const std::vector<Row>& rows);

}  // namespace codemode::perf

#endif  // CODEMODE_BENCH_PERF_SUMMARY_H_
