#include "search/search_bench.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <regex>
#include <utility>

#include <unistd.h>

#include "search/search_report.h"
#include "search/timed_child.h"

extern char** environ;

namespace codemode::search_bench {
namespace {

namespace fs = std::filesystem;

std::string load_average() {
  std::ifstream in("/proc/loadavg");
  std::string a, b, c;
  in >> a >> b >> c;
  return a + " " + b + " " + c;
}

// The baselines' environment: this process's, without git's and ripgrep's own configuration (an
// empty HOME, no system git config, no ripgrep config file, no GIT_* variable) and with one locale.
std::vector<std::string> child_environment(const std::string& home, const std::string& locale) {
  std::vector<std::string> environment;
  for (char** entry = environ; *entry != nullptr; ++entry) {
    const std::string_view text(*entry);
    const std::string_view name = text.substr(0, text.find('='));
    if (name.starts_with("GIT_") || name.starts_with("LC_") || name == "LANG" ||
        name == "LANGUAGE" || name == "HOME" || name == "XDG_CONFIG_HOME" ||
        name == "RIPGREP_CONFIG_PATH") {
      continue;
    }
    environment.emplace_back(text);
  }
  environment.push_back("HOME=" + home);
  environment.push_back("XDG_CONFIG_HOME=" + home + "/.config");
  environment.push_back("GIT_CONFIG_NOSYSTEM=1");
  environment.push_back("LC_ALL=" + locale);
  return environment;
}

std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

// The commit's files as rg sees them: `git archive` of it, unpacked once under checkout_dir and
// kept (named by the repository and the commit); an older export of the same repository is removed.
Result<std::string> export_commit(const SearchBenchOptions& options, const RepositoryInfo& info,
                                  const std::vector<std::string>& environment) {
  const fs::path directory =
      fs::path(options.checkout_dir) / (info.name + "-" + info.commit.substr(0, 12));
  std::error_code error;
  fs::create_directories(options.checkout_dir, error);
  const std::regex stale(info.name + "-[0-9a-f]{12}(\\.partial)?");
  for (const fs::directory_entry& entry : fs::directory_iterator(options.checkout_dir, error)) {
    const std::string name = entry.path().filename().string();
    if (entry.path() != directory && std::regex_match(name, stale)) {
      fs::remove_all(entry.path(), error);
    }
  }
  if (fs::is_directory(directory)) return directory.string();
  std::cerr << "codemode-search-bench: exporting " << info.name << " at " << info.commit
            << " for rg\n";
  const fs::path partial = directory.string() + ".partial";
  fs::create_directories(partial, error);
  if (error) return Error::tool_failed("search_bench", "Cannot make " + partial.string() + ".");
  Status exported =
      run_setup_shell("\"$1\" -C \"$2\" archive --format=tar \"$3\" | tar -x -C \"$4\"",
                      {options.command.git, info.path, info.commit, partial.string()}, environment);
  if (!exported.ok()) return std::move(exported).error();
  fs::rename(partial, directory, error);
  if (error) return Error::tool_failed("search_bench", "Cannot rename " + partial.string() + ".");
  return directory.string();
}

std::vector<std::string> baseline_argv(const SearchBenchOptions& options,
                                       const RepositoryInfo& info, const CellResult& cell) {
  switch (cell.subject) {
    case Subject::kGitGrep:
    case Subject::kGitGrep1t:
      return git_grep_argv(options.command, info.path, info.commit, cell.search,
                           cell.subject == Subject::kGitGrep1t);
    case Subject::kRipgrep:
    case Subject::kRipgrep1t:
      return rg_argv(options.command, info.checkout, cell.search,
                     cell.subject == Subject::kRipgrep1t);
    case Subject::kCodemode:
      break;
  }
  return {};
}

struct Run {
  double wall_ms = 0;
  double cpu_ms = 0;
  std::size_t lines = 0;
  std::optional<CodemodeRun> codemode;
  std::string failure;
};

Run run_cell(const SearchBenchOptions& options, CodemodeSearcher& searcher,
             const RepositoryInfo& info, const CellResult& cell,
             const std::vector<std::string>& environment, bool counted) {
  Run run;
  if (cell.subject == Subject::kCodemode) {
    Result<CodemodeRun> searched = searcher.search(info.snapshot_id, cell.search);
    if (!searched.ok()) {
      run.failure = searched.error().message;
      return run;
    }
    if (searched->stopped_for_time) run.failure = "a page stopped for time; raise --search-seconds";
    run.wall_ms = searched->wall_ms;
    run.cpu_ms = searched->cpu_ms;
    run.lines = searched->lines;
    run.codemode = std::move(*searched);
    return run;
  }
  const std::vector<std::string> argv = baseline_argv(options, info, cell);
  Result<ChildTiming> timed =
      run_timed(argv, environment, counted ? ChildOutput::kCapture : ChildOutput::kDiscard);
  if (!timed.ok()) {
    run.failure = timed.error().message;
    return run;
  }
  // grep's convention: 0 found, 1 found nothing, more an error.
  if (timed->exit_code != 0 && timed->exit_code != 1) {
    run.failure = std::string(label(cell.subject)) + " exited " + std::to_string(timed->exit_code);
  }
  run.wall_ms = timed->wall_ms;
  run.cpu_ms = timed->cpu_ms;
  run.lines = timed->lines;
  return run;
}

Status check(const SearchBenchOptions& options) {
  const auto refuse = [](const std::string& why) {
    return Error::invalid_config("search_bench", why);
  };
  if (options.repositories.empty()) return refuse("Give at least one --repository NAME=PATH.");
  if (options.repetitions < 1) return refuse("--repetitions must be at least 1.");
  if (options.checkout_dir.empty()) return refuse("--checkout-dir is required.");
  for (const std::string& name : options.cases) {
    if (std::find(kCaseNames.begin(), kCaseNames.end(), name) == kCaseNames.end()) {
      return refuse("Unknown case '" + name + "' (rare, common, ignore_case, regex).");
    }
  }
  for (const std::string& name : options.subjects) {
    if (!subject_from_string(name)) {
      return refuse("Unknown subject '" + name + "' (codemode, git_grep, git_grep_1t, rg, rg_1t).");
    }
  }
  return {};
}

}  // namespace

int run_search_bench(const SearchBenchOptions& asked) {
  const auto began = std::chrono::steady_clock::now();
  SearchBenchReport report{.options = asked};
  SearchBenchOptions& options = report.options;
  if (Status checked = check(options); !checked.ok()) {
    std::cerr << "codemode-search-bench: " << checked.error().message << "\n";
    return kExitError;
  }
  report.cpus = sysconf(_SC_NPROCESSORS_ONLN);
  report.load_start = load_average();

  char home_template[] = "/tmp/codemode-search-bench.XXXXXX";
  if (mkdtemp(home_template) == nullptr) {
    std::cerr << "codemode-search-bench: cannot make a temporary HOME\n";
    return kExitError;
  }
  const std::string home = home_template;
  struct RemoveHome {
    std::string path;
    ~RemoveHome() {
      std::error_code ignored;
      fs::remove_all(path, ignored);
    }
  } remove_home{home};
  const std::vector<std::string> environment = child_environment(home, options.locale);

  for (const auto& [program, into] : {std::pair{options.command.git, &report.git_version},
                                      std::pair{options.command.rg, &report.rg_version}}) {
    Result<ChildTiming> version =
        run_timed({program, "--version"}, environment, ChildOutput::kCapture);
    if (version.ok() && version->exit_code == 0) *into = first_line(version->output);
  }

  options.codemode.roots.clear();
  for (const BenchRepository& repository : options.repositories) {
    std::error_code error;
    const fs::path real = fs::canonical(repository.path, error);
    if (error) {
      std::cerr << "codemode-search-bench: no directory " << repository.path << "\n";
      return kExitError;
    }
    options.codemode.roots.push_back({.name = repository.name, .path = real.string()});
  }
  Result<CodemodeSearcher> searcher = CodemodeSearcher::make(options.codemode);
  if (!searcher.ok()) {
    std::cerr << "codemode-search-bench: " << searcher.error().message << "\n";
    return kExitError;
  }

  for (std::size_t r = 0; r < options.repositories.size(); ++r) {
    const BenchRepository& repository = options.repositories[r];
    RepositoryInfo info{.name = repository.name, .path = options.codemode.roots[r].path};
    Result<Json> opened = searcher->open(repository.name);
    if (!opened.ok()) {
      std::cerr << "codemode-search-bench: " << opened.error().message << "\n";
      return kExitError;
    }
    info.snapshot_id = opened->value("snapshot_id", "");
    info.commit = opened->value("commit_sha", "");
    Result<ChildTiming> listed = run_timed(
        {options.command.git, "-C", info.path, "ls-tree", "-r", "--name-only", info.commit},
        environment, ChildOutput::kCapture);
    if (listed.ok() && listed->exit_code == 0) info.tree_files = listed->lines;
    const bool wants_rg = std::any_of(options.subjects.begin(), options.subjects.end(),
                                      [](const std::string& s) { return s.starts_with("rg"); });
    if (wants_rg) {
      Result<std::string> checkout = export_commit(options, info, environment);
      if (!checkout.ok()) {
        std::cerr << "codemode-search-bench: " << checkout.error().message << "\n";
        return kExitError;
      }
      info.checkout = *checkout;
    }
    report.repositories.push_back(std::move(info));
    const CaseWords words{
        .rare = repository.rare, .common = options.common, .regex = options.regex};
    for (const SearchCase& search : make_cases(words, options.cases)) {
      for (const std::string& name : kSubjectNames) {
        if (std::find(options.subjects.begin(), options.subjects.end(), name) ==
            options.subjects.end()) {
          continue;
        }
        report.cells.push_back(
            {.repository = r, .search = search, .subject = *subject_from_string(name)});
      }
    }
  }

  // The untimed pass: every subject's count of matching lines, and page caches warmed.
  std::cerr << "codemode-search-bench: counting pass\n";
  for (CellResult& cell : report.cells) {
    Run run = run_cell(options, *searcher, report.repositories[cell.repository], cell, environment,
                       /*counted=*/true);
    cell.failure = run.failure;
    if (run.failure.empty()) cell.lines = run.lines;
    cell.codemode = std::move(run.codemode);
  }

  // The timed passes. Cells of one repository and query are adjacent, in subject order; each pass
  // starts that order at another subject.
  std::size_t subjects = 0;
  while (subjects < report.cells.size() &&
         report.cells[subjects].repository == report.cells[0].repository &&
         report.cells[subjects].search.name == report.cells[0].search.name) {
    ++subjects;
  }
  for (int pass = 0; pass < options.repetitions; ++pass) {
    std::cerr << "codemode-search-bench: pass " << pass + 1 << "/" << options.repetitions << "\n";
    for (std::size_t group = 0; group < report.cells.size(); group += subjects) {
      for (std::size_t k = 0; k < subjects; ++k) {
        CellResult& cell = report.cells[group + (k + static_cast<std::size_t>(pass)) % subjects];
        if (!cell.failure.empty()) continue;
        Run run = run_cell(options, *searcher, report.repositories[cell.repository], cell,
                           environment, /*counted=*/false);
        if (!run.failure.empty()) {
          cell.failure = run.failure;
          continue;
        }
        if (cell.subject == Subject::kCodemode && cell.lines && run.lines != *cell.lines) {
          cell.failure = "codemode's count changed between passes";
          continue;
        }
        cell.wall_ms.push_back(run.wall_ms);
        cell.cpu_ms.push_back(run.cpu_ms);
      }
    }
  }

  for (const CellResult& cell : report.cells) {
    if (!cell.failure.empty()) report.all_succeeded = false;
    if (cell.subject != Subject::kGitGrep && cell.subject != Subject::kGitGrep1t) continue;
    for (const CellResult& other : report.cells) {
      if (other.subject == Subject::kCodemode && other.repository == cell.repository &&
          other.search.name == cell.search.name && other.lines != cell.lines) {
        report.counts_agree = false;
      }
    }
  }
  report.load_end = load_average();
  report.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();

  print_report(report, std::cout);
  if (!options.json_path.empty()) {
    std::ofstream out(options.json_path);
    out << report_json(report).dump(2) << "\n";
    if (!out) {
      std::cerr << "codemode-search-bench: cannot write " << options.json_path << "\n";
      return kExitError;
    }
  }
  return report.all_succeeded && report.counts_agree ? kExitPassed : kExitFailed;
}

}  // namespace codemode::search_bench
