#include "search/search_report.h"

#include <cstdio>
#include <optional>
#include <string>

#include "perf/stats.h"

namespace codemode::search_bench {
namespace {

using perf::distribution;
using perf::Distribution;

std::string thousands(std::size_t value) {
  std::string digits = std::to_string(value);
  for (int at = static_cast<int>(digits.size()) - 3; at > 0; at -= 3) {
    digits.insert(static_cast<std::size_t>(at), ",");
  }
  return digits;
}

std::string fixed(std::optional<double> value, int decimals) {
  if (!value) return "-";
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", decimals, *value);
  std::string shown = text;
  const std::size_t point = shown.find('.');
  const std::size_t whole = point == std::string::npos ? shown.size() : point;
  if (whole > 3 && *value >= 0) {
    return thousands(static_cast<std::size_t>(std::stoull(shown.substr(0, whole)))) +
           shown.substr(whole);
  }
  return shown;
}

const CellResult* find_cell(const SearchBenchReport& report, const CellResult& row,
                            Subject subject) {
  for (const CellResult& cell : report.cells) {
    if (cell.repository == row.repository && cell.search.name == row.search.name &&
        cell.subject == subject) {
      return &cell;
    }
  }
  return nullptr;
}

std::optional<double> median(const CellResult* cell, bool cpu) {
  if (cell == nullptr || !cell->failure.empty()) return std::nullopt;
  std::optional<Distribution> d = distribution(cpu ? cell->cpu_ms : cell->wall_ms);
  if (!d) return std::nullopt;
  return d->median;
}

std::string lines_of(const CellResult* cell) {
  if (cell == nullptr) return "-";
  if (!cell->lines) return "failed";
  return thousands(*cell->lines);
}

// The first cell of each repository and query, in run order.
std::vector<const CellResult*> rows(const SearchBenchReport& report) {
  std::vector<const CellResult*> firsts;
  for (const CellResult& cell : report.cells) {
    if (firsts.empty() || firsts.back()->repository != cell.repository ||
        firsts.back()->search.name != cell.search.name) {
      firsts.push_back(&cell);
    }
  }
  return firsts;
}

std::string query_shown(const SearchCase& search) {
  std::string shown = "`" + search.pattern + "`";
  if (search.regex) shown += " regex";
  if (!search.case_sensitive) shown += " -i";
  return shown;
}

const std::vector<Subject> kAllSubjects{Subject::kCodemode, Subject::kGitGrep, Subject::kGitGrep1t,
                                        Subject::kRipgrep, Subject::kRipgrep1t};

Json distribution_json(const std::vector<double>& values) {
  std::optional<Distribution> d = distribution(values);
  if (!d) return nullptr;
  return Json{{"count", d->count}, {"median", d->median}, {"p90", d->p90}, {"max", d->max}};
}

Json optional_json(std::optional<double> value) { return value ? Json(*value) : Json(nullptr); }

}  // namespace

void print_report(const SearchBenchReport& report, std::ostream& out) {
  const SearchBenchOptions& options = report.options;
  out << "codemode-search-bench: " << options.repetitions << " timed passes after a counting pass, "
      << report.cpus << " CPUs, load average " << report.load_start << " at the start and "
      << report.load_end << " at the end, " << fixed(report.wall_seconds, 0) << " s\n"
      << "  " << report.git_version << "; " << report.rg_version << "; LC_ALL=" << options.locale
      << "; git grep regex flag " << options.command.git_regex_flag << "; searchCode pages of "
      << options.codemode.max_results << " items, "
      << thousands(static_cast<std::size_t>(options.codemode.max_bytes)) << " bytes\n";
  for (const RepositoryInfo& info : report.repositories) {
    out << "  " << info.name << ": commit " << info.commit.substr(0, 12) << ", "
        << thousands(info.tree_files) << " files in the tree";
    for (const CellResult& cell : report.cells) {
      if (cell.subject == Subject::kCodemode && cell.codemode && cell.codemode->pages == 1 &&
          &report.repositories[cell.repository] == &info) {
        out << "; searchCode scanned " << thousands(cell.codemode->files_scanned) << " files ("
            << thousands(cell.codemode->bytes_scanned) << " bytes), skipped "
            << cell.codemode->skipped_binary << " binary and " << cell.codemode->skipped_large
            << " over 8 MiB, and " << cell.codemode->skipped_long_lines << " long lines";
        break;
      }
    }
    out << "\n";
  }
  out << "\nWall time, median ms (git grep reads the commit's objects as searchCode does; rg reads "
         "an export of the commit from disk):\n\n"
      << "| repository | query | matching lines codemode / git grep / rg | pages |";
  for (Subject subject : kAllSubjects) out << " " << label(subject) << " |";
  out << " × git grep | × git grep --threads 1 |\n| --- | --- | --- | ---: |";
  for (std::size_t i = 0; i < kAllSubjects.size() + 2; ++i) out << " ---: |";
  out << "\n";
  for (const CellResult* row : rows(report)) {
    const CellResult* codemode = find_cell(report, *row, Subject::kCodemode);
    out << "| " << report.repositories[row->repository].name << " | " << query_shown(row->search)
        << " | " << lines_of(codemode) << " / "
        << lines_of(find_cell(report, *row, Subject::kGitGrep)) << " / "
        << lines_of(find_cell(report, *row, Subject::kRipgrep)) << " | "
        << (codemode && codemode->codemode ? thousands(codemode->codemode->pages) : "-") << " |";
    for (Subject subject : kAllSubjects) {
      out << " " << fixed(median(find_cell(report, *row, subject), false), 1) << " |";
    }
    out << " "
        << fixed(perf::ratio(median(codemode, false),
                             median(find_cell(report, *row, Subject::kGitGrep), false)),
                 2)
        << " | "
        << fixed(perf::ratio(median(codemode, false),
                             median(find_cell(report, *row, Subject::kGitGrep1t), false)),
                 2)
        << " |\n";
  }
  out << "\nCPU time (user + system), median ms:\n\n| repository | query |";
  for (Subject subject : kAllSubjects) out << " " << label(subject) << " |";
  out << " × git grep |\n| --- | --- |";
  for (std::size_t i = 0; i < kAllSubjects.size() + 1; ++i) out << " ---: |";
  out << "\n";
  for (const CellResult* row : rows(report)) {
    out << "| " << report.repositories[row->repository].name << " | " << query_shown(row->search)
        << " |";
    for (Subject subject : kAllSubjects) {
      out << " " << fixed(median(find_cell(report, *row, subject), true), 1) << " |";
    }
    out << " "
        << fixed(perf::ratio(median(find_cell(report, *row, Subject::kCodemode), true),
                             median(find_cell(report, *row, Subject::kGitGrep), true)),
                 2)
        << " |\n";
  }
  for (const CellResult& cell : report.cells) {
    if (cell.failure.empty()) continue;
    out << "FAILED " << report.repositories[cell.repository].name << " " << cell.search.name << " "
        << label(cell.subject) << ": " << cell.failure << "\n";
  }
  if (!report.counts_agree) out << "FAILED codemode's and git grep's line counts differ\n";
}

Json report_json(const SearchBenchReport& report) {
  const SearchBenchOptions& options = report.options;
  Json repositories = Json::array();
  for (const RepositoryInfo& info : report.repositories) {
    repositories.push_back(Json{{"name", info.name},
                                {"commit", info.commit},
                                {"treeFiles", info.tree_files},
                                {"checkout", info.checkout}});
  }
  Json results = Json::array();
  for (const CellResult& cell : report.cells) {
    Json result{{"repository", report.repositories[cell.repository].name},
                {"case", cell.search.name},
                {"pattern", cell.search.pattern},
                {"regex", cell.search.regex},
                {"caseSensitive", cell.search.case_sensitive},
                {"subject", to_string(cell.subject)},
                {"lines", cell.lines ? Json(*cell.lines) : Json(nullptr)},
                {"wallMs", distribution_json(cell.wall_ms)},
                {"cpuMs", distribution_json(cell.cpu_ms)},
                {"failure", cell.failure.empty() ? Json(nullptr) : Json(cell.failure)}};
    if (cell.codemode) {
      result["codemode"] = Json{{"pages", cell.codemode->pages},
                                {"filesScanned", cell.codemode->files_scanned},
                                {"bytesScanned", cell.codemode->bytes_scanned},
                                {"skippedBinary", cell.codemode->skipped_binary},
                                {"skippedLarge", cell.codemode->skipped_large},
                                {"skippedLongLines", cell.codemode->skipped_long_lines}};
    }
    if (cell.subject == Subject::kCodemode) {
      result["ratios"] = Json{
          {"wallOverGitGrep",
           optional_json(perf::ratio(median(&cell, false),
                                     median(find_cell(report, cell, Subject::kGitGrep), false)))},
          {"wallOverGitGrep1t",
           optional_json(perf::ratio(median(&cell, false),
                                     median(find_cell(report, cell, Subject::kGitGrep1t), false)))},
          {"wallOverRg",
           optional_json(perf::ratio(median(&cell, false),
                                     median(find_cell(report, cell, Subject::kRipgrep), false)))},
          {"cpuOverGitGrep",
           optional_json(perf::ratio(median(&cell, true),
                                     median(find_cell(report, cell, Subject::kGitGrep), true)))}};
    }
    results.push_back(std::move(result));
  }
  return Json{{"format", 1},
              {"options",
               {{"repetitions", options.repetitions},
                {"cases", options.cases},
                {"subjects", options.subjects},
                {"common", options.common},
                {"regex", options.regex},
                {"locale", options.locale},
                {"gitRegexFlag", options.command.git_regex_flag},
                {"maxResults", options.codemode.max_results},
                {"maxBytes", options.codemode.max_bytes},
                {"searchTimeMs", options.codemode.search_time.count()}}},
              {"machine",
               {{"cpus", report.cpus},
                {"loadAverageStart", report.load_start},
                {"loadAverageEnd", report.load_end},
                {"git", report.git_version},
                {"rg", report.rg_version}}},
              {"repositories", std::move(repositories)},
              {"results", std::move(results)},
              {"allSucceeded", report.all_succeeded},
              {"countsAgree", report.counts_agree},
              {"wallSeconds", report.wall_seconds}};
}

}  // namespace codemode::search_bench
