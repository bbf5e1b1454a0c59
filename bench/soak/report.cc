#include "soak/report.h"

#include <algorithm>
#include <iomanip>
#include <map>

namespace codemode::soak {
namespace {

// What the plan says each (status, code, rule) should count, then what was seen, in one map.
struct OutcomeRow {
  std::size_t observed = 0;
  std::size_t expected = 0;
};

std::map<OutcomeKey, OutcomeRow> outcome_rows(const SoakReport& report,
                                              const std::vector<SoakKind>& kinds) {
  std::map<OutcomeKey, OutcomeRow> rows;
  for (std::size_t k = 0; k < kinds.size(); ++k) {
    rows[kinds[k].expected.key].expected += report.planned_by_kind[k];
  }
  for (const auto& [key, count] : report.tally.by_outcome) rows[key].observed += count;
  return rows;
}

std::int64_t rss_growth_kib(const LeakFigures& leaks) {
  if (!leaks.rss_after_warmup_kib || !leaks.rss_end_kib) return 0;
  return static_cast<std::int64_t>(*leaks.rss_end_kib) -
         static_cast<std::int64_t>(*leaks.rss_after_warmup_kib);
}

std::int64_t fd_growth(const LeakFigures& leaks) {
  return static_cast<std::int64_t>(leaks.fds_end) -
         static_cast<std::int64_t>(leaks.fds_after_warmup);
}

std::size_t measured_executions(const SoakReport& report) {
  return report.settings.executions - report.settings.warmup;
}

std::size_t tolerance_kib(const SoakReport& report) {
  return rss_tolerance_kib(measured_executions(report));
}

// Growth per execution after the warm-up, in bytes: the figure to compare with a leak's size.
std::int64_t growth_per_execution(const SoakReport& report) {
  const std::size_t executions = measured_executions(report);
  if (executions == 0) return 0;
  return rss_growth_kib(report.leaks) * 1024 / static_cast<std::int64_t>(executions);
}

std::string figure(const std::optional<std::size_t>& value) {
  return value ? std::to_string(*value) : "unknown";
}

const char* verdict_word(bool ok) { return ok ? "ok" : "LEAK"; }

void print_outcomes(std::ostream& out, const SoakReport& report,
                    const std::vector<SoakKind>& kinds) {
  out << std::left << std::setw(56) << "outcome (status code rule)" << std::right << std::setw(10)
      << "observed" << std::setw(10) << "expected"
      << "\n";
  for (const auto& [key, row] : outcome_rows(report, kinds)) {
    out << std::left << std::setw(56) << key.to_string() << std::right << std::setw(10)
        << row.observed << std::setw(10) << row.expected
        << (row.observed == row.expected ? "" : "   <- differs") << "\n";
  }
}

void print_kinds(std::ostream& out, const SoakReport& report, const std::vector<SoakKind>& kinds) {
  out << std::left << std::setw(28) << "kind" << std::setw(44) << "must end as" << std::right
      << std::setw(8) << "planned" << std::setw(10) << "matched" << std::setw(12) << "unexpected"
      << "\n";
  for (std::size_t k = 0; k < kinds.size(); ++k) {
    const ExpectedOutcome& expected = kinds[k].expected;
    out << std::left << std::setw(28) << kinds[k].name << std::setw(44)
        << expected.key.to_string() + (expected.output ? " +output" : "") << std::right
        << std::setw(8) << report.planned_by_kind[k] << std::setw(10)
        << report.tally.matched_by_kind[k] << std::setw(12) << report.tally.unexpected_by_kind[k]
        << "\n";
  }
}

void print_unexpected(std::ostream& out, const SoakReport& report,
                      const std::vector<SoakKind>& kinds) {
  out << "unexpected outcomes: " << report.tally.unexpected << "\n";
  for (const UnexpectedOutcome& seen : report.tally.first_unexpected) {
    std::string text = seen.outcome.dump();
    if (text.size() > 400) text = text.substr(0, 400) + "...";
    out << "  execution " << seen.execution << " (" << kinds[seen.kind].name << "): " << text
        << "\n";
  }
}

void print_leaks(std::ostream& out, const SoakReport& report, const Verdict& verdict) {
  const LeakFigures& leaks = report.leaks;
  out << "parent RSS: " << figure(leaks.rss_after_warmup_kib) << " KiB after warm-up, "
      << figure(leaks.rss_end_kib) << " KiB at the end, growth " << rss_growth_kib(leaks)
      << " KiB = " << growth_per_execution(report) << " B per execution (tolerance "
      << tolerance_kib(report) << " KiB"
      << (leaks.rss_judged ? "" : "; not judged under AddressSanitizer") << ")  "
      << verdict_word(verdict.rss) << "\n";
  out << "open fds: " << leaks.fds_at_start << " at start, " << leaks.fds_after_warmup
      << " after warm-up, " << leaks.fds_end << " at the end  " << verdict_word(verdict.fds)
      << "\n";
  out << "processes left (children, zombies included): " << leaks.processes_left.size() << "  "
      << verdict_word(verdict.processes) << "\n";
  out << "temp files left: " << leaks.private_tmp_left.size() << " in the private TMPDIR, "
      << leaks.shared_tmp_left.size() << " new codemode entries in /tmp and /dev/shm  "
      << verdict_word(verdict.temp_files) << "\n";
  for (const auto* list : {&leaks.private_tmp_left, &leaks.shared_tmp_left}) {
    for (const std::string& path : *list) out << "  left: " << path << "\n";
  }
}

Json kinds_json(const SoakReport& report, const std::vector<SoakKind>& kinds) {
  Json rows = Json::array();
  for (std::size_t k = 0; k < kinds.size(); ++k) {
    const OutcomeKey& key = kinds[k].expected.key;
    rows.push_back({{"kind", kinds[k].name},
                    {"status", key.status},
                    {"code", key.code},
                    {"rule", key.rule},
                    {"outputChecked", kinds[k].expected.output.has_value()},
                    {"planned", report.planned_by_kind[k]},
                    {"matched", report.tally.matched_by_kind[k]},
                    {"unexpected", report.tally.unexpected_by_kind[k]}});
  }
  return rows;
}

Json outcomes_json(const SoakReport& report, const std::vector<SoakKind>& kinds) {
  Json rows = Json::array();
  for (const auto& [key, row] : outcome_rows(report, kinds)) {
    rows.push_back({{"status", key.status},
                    {"code", key.code},
                    {"rule", key.rule},
                    {"observed", row.observed},
                    {"expected", row.expected}});
  }
  return rows;
}

Json leaks_json(const SoakReport& report) {
  const LeakFigures& leaks = report.leaks;
  auto optional = [](const std::optional<std::size_t>& value) {
    return value ? Json(*value) : Json(nullptr);
  };
  return {{"rssKiB",
           {{"afterWarmup", optional(leaks.rss_after_warmup_kib)},
            {"end", optional(leaks.rss_end_kib)},
            {"growth", rss_growth_kib(leaks)},
            {"growthBytesPerExecution", growth_per_execution(report)},
            {"tolerance", tolerance_kib(report)},
            {"judged", leaks.rss_judged}}},
          {"fds",
           {{"atStart", leaks.fds_at_start},
            {"afterWarmup", leaks.fds_after_warmup},
            {"end", leaks.fds_end}}},
          {"processesLeft", leaks.processes_left.size()},
          {"tempFilesLeft",
           {{"privateTmpdir", leaks.private_tmp_left}, {"sharedTmp", leaks.shared_tmp_left}}}};
}

}  // namespace

std::size_t rss_tolerance_kib(std::size_t executions_after_warmup) {
  const std::size_t remembered = std::min(executions_after_warmup, kRememberedExecutionIds);
  return kRssSlackKib + remembered * kRssBytesPerExecution / 1024;
}

Verdict judge(const SoakReport& report) {
  const LeakFigures& leaks = report.leaks;
  Verdict verdict;
  verdict.outcomes = report.tally.unexpected == 0;
  verdict.rss = !leaks.rss_judged ||
                (leaks.rss_after_warmup_kib && leaks.rss_end_kib &&
                 rss_growth_kib(leaks) <= static_cast<std::int64_t>(tolerance_kib(report)));
  verdict.fds = fd_growth(leaks) <= 0;
  verdict.processes = leaks.processes_left.empty();
  verdict.temp_files = leaks.private_tmp_left.empty() && leaks.shared_tmp_left.empty();
  return verdict;
}

void print_report(std::ostream& out, const SoakReport& report, const std::vector<SoakKind>& kinds) {
  const SoakSettings& settings = report.settings;
  out << "codemode-soak: " << settings.executions << " executions, concurrency "
      << settings.concurrency << ", seed " << settings.seed << ", warm-up " << settings.warmup
      << "\n"
      << std::fixed << std::setprecision(1) << "time: " << report.seconds << " s, "
      << (report.seconds > 0 ? settings.executions / report.seconds : 0.0) << " executions/s\n\n";
  print_outcomes(out, report, kinds);
  out << "\n";
  print_kinds(out, report, kinds);
  out << "\n";
  print_unexpected(out, report, kinds);
  const Verdict verdict = judge(report);
  print_leaks(out, report, verdict);
  out << "\nresult: " << (verdict.passed() ? "PASS" : "FAIL") << "\n";
}

Json report_json(const SoakReport& report, const std::vector<SoakKind>& kinds) {
  const SoakSettings& settings = report.settings;
  Json unexpected = Json::array();
  for (const UnexpectedOutcome& seen : report.tally.first_unexpected) {
    unexpected.push_back({{"execution", seen.execution},
                          {"kind", kinds[seen.kind].name},
                          {"outcome", seen.outcome}});
  }
  return {{"executions", settings.executions},
          {"concurrency", settings.concurrency},
          {"seed", settings.seed},
          {"warmup", settings.warmup},
          {"seconds", report.seconds},
          {"executionsPerSecond", report.seconds > 0 ? settings.executions / report.seconds : 0.0},
          {"outcomes", outcomes_json(report, kinds)},
          {"kinds", kinds_json(report, kinds)},
          {"unexpected", report.tally.unexpected},
          {"firstUnexpected", std::move(unexpected)},
          {"leaks", leaks_json(report)},
          {"passed", judge(report).passed()}};
}

}  // namespace codemode::soak
