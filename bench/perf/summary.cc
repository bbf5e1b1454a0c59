#include "perf/summary.h"

namespace codemode::perf {
namespace {

std::vector<double> kib_values(const std::vector<ProcessPeak>& peaks, bool private_dirty) {
  std::vector<double> values;
  for (const ProcessPeak& peak : peaks) {
    const std::size_t kib = private_dirty ? peak.private_dirty_kib : peak.peak_rss_kib;
    // 0: the field could not be read in any sample (a zombie has no VmHWM line).
    if (kib > 0) values.push_back(static_cast<double>(kib));
  }
  return values;
}

Row make_row(const Configuration& configuration, const Measurement& m) {
  return {.configuration = configuration.label(),
          .source = &configuration,
          .workload = m.workload,
          .executions = m.executions(),
          .succeeded = m.succeeded(),
          .first_failure = m.first_failure(),
          .latency_ms = distribution(m.serial.latencies_ms),
          .throughput_c1 = m.serial.throughput(),
          .throughput_c2 = m.concurrent.throughput(),
          .call_span_us = distribution(m.serial.call_spans_us),
          .memory_processes = m.memory.size(),
          .private_dirty_kib = distribution(kib_values(m.memory, true)),
          .peak_rss_kib = distribution(kib_values(m.memory, false))};
}

const Row* find_row(const std::vector<Row>& rows, const std::string& subject,
                    const std::string& workload) {
  for (const Row& row : rows) {
    if (row.source->subject == subject && row.workload == workload) return &row;
  }
  return nullptr;
}

std::optional<double> median_of(const std::optional<Distribution>& d) {
  return d ? std::optional<double>(d->median) : std::nullopt;
}

void add_ratios(Row& row, const std::vector<Row>& rows) {
  if (const Row* quickjs = find_row(rows, "quickjs", row.workload)) {
    row.median_vs_quickjs = ratio(median_of(row.latency_ms), median_of(quickjs->latency_ms));
    row.throughput_c2_vs_quickjs = ratio(row.throughput_c2, quickjs->throughput_c2);
  }
  if (const Row* floor = find_row(rows, "floor", row.workload)) {
    row.median_vs_floor = ratio(median_of(row.latency_ms), median_of(floor->latency_ms));
    row.throughput_c2_vs_floor = ratio(row.throughput_c2, floor->throughput_c2);
  }
  if (const Row* ivm = find_row(rows, "isolated_vm", row.workload)) {
    row.median_vs_isolated_vm = ratio(median_of(row.latency_ms), median_of(ivm->latency_ms));
    row.throughput_c2_vs_isolated_vm = ratio(row.throughput_c2, ivm->throughput_c2);
  }
  if (const Row* inprocess = find_row(rows, "quickjs_inprocess", row.workload)) {
    row.median_vs_quickjs_inprocess =
        ratio(median_of(row.latency_ms), median_of(inprocess->latency_ms));
    row.throughput_c2_vs_quickjs_inprocess = ratio(row.throughput_c2, inprocess->throughput_c2);
  }
}

// The interpreter row with the same spawn mode, isolation profile and workload as a jit row.
const Row* interpreter_twin(const std::vector<Row>& rows, const Row& jit) {
  for (const Row& row : rows) {
    const Configuration& c = *row.source;
    if (c.subject == "codemode" && c.engine == "interpreter" && c.spawn == jit.source->spawn &&
        c.isolation == jit.source->isolation && row.workload == jit.workload) {
      return &row;
    }
  }
  return nullptr;
}

// The library's trivial row an MCP row is compared with (summary.h).
const Row* library_trivial(const std::vector<Row>& rows, const Row& mcp) {
  const Configuration& m = *mcp.source;
  const std::string spawn = m.spawn.empty() ? "fork_server" : m.spawn;
  const std::string isolation = m.isolation.empty() ? "process" : m.isolation;
  const std::string engine = m.engine.empty() ? "interpreter" : m.engine;
  for (const Row& row : rows) {
    const Configuration& c = *row.source;
    if (c.subject == "codemode" && row.workload == "trivial" && c.spawn == spawn &&
        c.isolation == isolation && c.engine == engine) {
      return &row;
    }
  }
  return nullptr;
}

void add_library_ratio(Row& row, const std::vector<Row>& rows) {
  const Row* library = library_trivial(rows, row);
  if (!library) return;
  row.library_trivial_median_ms = median_of(library->latency_ms);
  row.median_vs_library_trivial = ratio(median_of(row.latency_ms), row.library_trivial_median_ms);
}

void add_jit_speedup(Row& row, const std::vector<Row>& rows) {
  const Row* twin = interpreter_twin(rows, row);
  if (!twin) return;
  row.interpreter_median_ms = median_of(twin->latency_ms);
  row.jit_speedup_median = ratio(row.interpreter_median_ms, median_of(row.latency_ms));
}

}  // namespace

std::vector<Row> summarize(const BenchReport& report) {
  std::vector<Row> rows;
  for (const Configuration& configuration : report.configurations) {
    for (const Measurement& m : configuration.measurements)
      rows.push_back(make_row(configuration, m));
  }
  for (Row& row : rows) {
    if (row.source->subject == "codemode") add_ratios(row, rows);
    if (row.source->engine == "jit" && row.source->subject == "codemode") {
      add_jit_speedup(row, rows);
    }
    if (row.source->subject.starts_with("mcp_")) add_library_ratio(row, rows);
  }
  return rows;
}

std::optional<bool> TargetCheck::met() const {
  if (!measured) return std::nullopt;
  return comparison == "<=" ? *measured <= target : *measured >= target;
}

std::vector<TargetCheck> check_targets(const std::vector<Row>& rows) {
  std::vector<TargetCheck> checks;
  for (const Row& row : rows) {
    if (row.source->subject == "mcp_code") {
      checks.push_back({row.configuration, "mcp_code_call_vs_library_trivial", "<=", 1.5,
                        row.median_vs_library_trivial});
    }
    // The targets are the process sandbox's; a container per execution is another order of cost
    // (docs/performance.md, "Docker").
    if (row.source->subject != "codemode" || row.source->spawn == "docker") continue;
    const std::string& label = row.configuration;
    if (row.workload == "trivial") {
      checks.push_back({label, "trivial_median_ms", "<=", 1.0, median_of(row.latency_ms)});
      checks.push_back({label, "trivial_executions_per_second_c2", ">=", 1500, row.throughput_c2});
      checks.push_back(
          {label, "trivial_private_dirty_kib", "<=", 1024, median_of(row.private_dirty_kib)});
    }
    if (row.workload == "sequential_calls") {
      checks.push_back({label, "tool_call_round_trip_us", "<=", 15, median_of(row.call_span_us)});
    }
  }
  return checks;
}

}  // namespace codemode::perf
