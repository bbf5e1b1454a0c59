#include "perf/report.h"

#include <cstdio>
#include <string>

#include "perf/summary.h"

namespace codemode::perf {
namespace {

Json optional_number(const std::optional<double>& value) {
  return value ? Json(*value) : Json(nullptr);
}

Json distribution_json(const std::optional<Distribution>& d) {
  if (!d) return nullptr;
  return {{"count", d->count}, {"median", d->median}, {"p90", d->p90}, {"max", d->max}};
}

Json row_json(const Row& row) {
  return {
      {"configuration", row.configuration},
      {"subject", row.source->subject},
      {"spawn", row.source->spawn},
      {"isolation", row.source->isolation},
      {"engine", row.source->engine},
      {"workload", row.workload},
      {"executions", row.executions},
      {"succeeded", row.succeeded},
      {"firstFailure", row.first_failure.empty() ? Json(nullptr) : Json(row.first_failure)},
      {"latencyMs", distribution_json(row.latency_ms)},
      {"executionsPerSecond",
       {{"concurrency1", optional_number(row.throughput_c1)},
        {"concurrency2", optional_number(row.throughput_c2)}}},
      {"toolCallRoundTripUs", distribution_json(row.call_span_us)},
      {"memory",
       {{"processesSampled", row.memory_processes},
        {"privateDirtyKib", distribution_json(row.private_dirty_kib)},
        {"peakRssKib", distribution_json(row.peak_rss_kib)}}},
      {"ratios",
       {{"medianVsQuickjs", optional_number(row.median_vs_quickjs)},
        {"executionsPerSecondC2VsQuickjs", optional_number(row.throughput_c2_vs_quickjs)},
        {"medianVsFloor", optional_number(row.median_vs_floor)},
        {"jitSpeedupMedian", optional_number(row.jit_speedup_median)},
        {"executionsPerSecondC2VsFloor", optional_number(row.throughput_c2_vs_floor)},
        {"medianVsIsolatedVm", optional_number(row.median_vs_isolated_vm)},
        {"executionsPerSecondC2VsIsolatedVm", optional_number(row.throughput_c2_vs_isolated_vm)},
        {"medianVsQuickjsInprocess", optional_number(row.median_vs_quickjs_inprocess)},
        {"executionsPerSecondC2VsQuickjsInprocess",
         optional_number(row.throughput_c2_vs_quickjs_inprocess)},
        {"medianVsLibraryTrivial", optional_number(row.median_vs_library_trivial)}}}};
}

Json configuration_json(const Configuration& c) {
  return {{"subject", c.subject},
          {"spawn", c.spawn},
          {"isolation", c.isolation},
          {"engine", c.engine},
          {"status", c.status == RunStatus::kRan ? "ran" : "skipped"},
          {"skipReason", c.skip_reason.empty() ? Json(nullptr) : Json(c.skip_reason)}};
}

Json target_json(const TargetCheck& check) {
  const std::optional<bool> met = check.met();
  return {{"configuration", check.configuration},
          {"name", check.name},
          {"target", std::string(check.comparison) + " " + Json(check.target).dump()},
          {"measured", optional_number(check.measured)},
          {"met", met ? Json(*met) : Json(nullptr)}};
}

// A cell: the value with `digits` decimals, or "-" when there is none.
std::string cell(const std::optional<double>& value, int digits) {
  if (!value) return "-";
  char text[32];
  std::snprintf(text, sizeof text, "%.*f", digits, *value);
  return text;
}

std::optional<double> median(const std::optional<Distribution>& d) {
  return d ? std::optional<double>(d->median) : std::nullopt;
}

std::optional<double> p90(const std::optional<Distribution>& d) {
  return d ? std::optional<double>(d->p90) : std::nullopt;
}

void print_row(const Row& row, std::FILE* out) {
  std::fprintf(
      out,
      "%-33s %-17s %5zu/%-5zu %9s %9s %8s %8s %8s %7s %7s %7s %7s %6s %6s %6s %7s %6s "
      "%8s\n",
      row.configuration.c_str(), row.workload.c_str(), row.succeeded, row.executions,
      cell(median(row.latency_ms), 2).c_str(), cell(p90(row.latency_ms), 2).c_str(),
      cell(row.throughput_c1, 1).c_str(), cell(row.throughput_c2, 1).c_str(),
      cell(median(row.call_span_us), 1).c_str(), cell(median(row.private_dirty_kib), 0).c_str(),
      cell(median(row.peak_rss_kib), 0).c_str(), cell(row.median_vs_quickjs, 2).c_str(),
      cell(row.throughput_c2_vs_quickjs, 2).c_str(), cell(row.median_vs_floor, 2).c_str(),
      cell(row.throughput_c2_vs_floor, 2).c_str(), cell(row.median_vs_isolated_vm, 2).c_str(),
      cell(row.throughput_c2_vs_isolated_vm, 2).c_str(),
      cell(row.median_vs_quickjs_inprocess, 2).c_str(),
      cell(row.throughput_c2_vs_quickjs_inprocess, 2).c_str());
}

}  // namespace

std::string Configuration::label() const {
  if (spawn.empty()) return subject;
  return subject + " " + spawn + "/" + isolation + (engine == "jit" ? "/jit" : "");
}

bool BenchReport::all_succeeded() const {
  for (const Configuration& c : configurations) {
    for (const Measurement& m : c.measurements) {
      if (m.succeeded() != m.executions()) return false;
    }
  }
  return true;
}

Json to_json(const BenchReport& report) {
  const std::vector<Row> rows = summarize(report);
  Json out{{"format", 1},
           {"options", report.options},
           {"wallSeconds", report.wall_seconds},
           {"allSucceeded", report.all_succeeded()},
           {"configurations", Json::array()},
           {"results", Json::array()},
           {"targets", Json::array()}};
  for (const Configuration& c : report.configurations)
    out["configurations"].push_back(configuration_json(c));
  for (const Row& row : rows) out["results"].push_back(row_json(row));
  for (const TargetCheck& check : check_targets(rows)) out["targets"].push_back(target_json(check));
  return out;
}

void print_table(const BenchReport& report, std::FILE* out) {
  for (const Configuration& c : report.configurations) {
    if (c.status == RunStatus::kSkipped) {
      std::fprintf(out, "skipped: %s (%s)\n", c.label().c_str(), c.skip_reason.c_str());
    }
  }
  // x<baseline>: this codemode row's median / the baseline's; x<baseline>/s2: its executions per
  // second at concurrency 2 / the baseline's. ivm: isolated_vm; qjsi: quickjs_inprocess.
  std::fprintf(out,
               "%-33s %-17s %11s %9s %9s %8s %8s %8s %7s %7s %7s %7s %6s %6s %6s %7s %6s %8s\n",
               "configuration", "workload", "ok/runs", "med ms", "p90 ms", "exec/s1", "exec/s2",
               "call us", "privKiB", "rssKiB", "xqjs", "xqjs/s2", "xfloor", "xfl/s2", "xivm",
               "xivm/s2", "xqjsi", "xqjsi/s2");
  const std::vector<Row> rows = summarize(report);
  for (const Row& row : rows) print_row(row, out);
  for (const Row& row : rows) {
    if (!row.first_failure.empty()) {
      std::fprintf(out, "first failure, %s %s: %s\n", row.configuration.c_str(),
                   row.workload.c_str(), row.first_failure.c_str());
    }
  }
  for (const Row& row : rows) {
    if (!row.jit_speedup_median) continue;
    std::fprintf(out, "jit speed-up %-33s %-17s %.1fx (median %s ms, interpreter %s ms)\n",
                 row.configuration.c_str(), row.workload.c_str(), *row.jit_speedup_median,
                 cell(median(row.latency_ms), 2).c_str(),
                 cell(row.interpreter_median_ms, 2).c_str());
  }
  for (const Row& row : rows) {
    if (!row.median_vs_library_trivial) continue;
    std::fprintf(out, "%-33s %-17s %.2fx library trivial (median %s ms, library %s ms)\n",
                 row.configuration.c_str(), row.workload.c_str(), *row.median_vs_library_trivial,
                 cell(median(row.latency_ms), 2).c_str(),
                 cell(row.library_trivial_median_ms, 2).c_str());
  }
  for (const TargetCheck& check : check_targets(rows)) {
    const std::optional<bool> met = check.met();
    std::fprintf(out, "target %-33s %-32s %s %-6g measured %-10s %s\n", check.configuration.c_str(),
                 check.name.c_str(), check.comparison.c_str(), check.target,
                 cell(check.measured, 2).c_str(), !met ? "not run" : (*met ? "met" : "MISSED"));
  }
  std::fprintf(out, "wall time %.1f s; %s\n", report.wall_seconds,
               report.all_succeeded() ? "every execution succeeded" : "SOME EXECUTIONS FAILED");
}

}  // namespace codemode::perf
