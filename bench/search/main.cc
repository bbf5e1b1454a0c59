// codemode-search-bench: the repository tools' searchCode against git grep and ripgrep over the
// same commits, interleaved in one run (docs/performance.md, "Repository search"). A measurement
// tool, run by scripts/bench --search; never a timed test.
#include <chrono>
#include <csignal>
#include <iostream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "search/search_bench.h"

namespace {

// "NAME=VALUE" split at its first '='; false when there is none.
bool split_pair(const std::string& text, std::string& name, std::string& value) {
  const std::size_t at = text.find('=');
  if (at == std::string::npos || at == 0) return false;
  name = text.substr(0, at);
  value = text.substr(at + 1);
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  std::signal(SIGPIPE, SIG_IGN);
  using codemode::search_bench::kExitError;
  codemode::search_bench::SearchBenchOptions options;
  std::vector<std::string> repositories;
  std::vector<std::string> rares;
  std::string default_rare = "needle_token_xyz";
  double search_seconds = 60;
  CLI::App app{"codemode-search-bench: searchCode against git grep and rg, interleaved."};
  app.add_option("--repository", repositories,
                 "NAME=PATH: a repository to search at HEAD (repeatable; NAME is its root name)")
      ->required();
  app.add_option("--rare", rares, "NAME=WORD: that repository's rare literal (repeatable)");
  app.add_option("--default-rare", default_rare, "The rare literal of the others");
  app.add_option("--common", options.common, "The common literal");
  app.add_option("--regex", options.regex, "The regular expression");
  app.add_option("--cases", options.cases, "rare, common, ignore_case, regex (default: all)")
      ->delimiter(',');
  app.add_option("--subjects", options.subjects,
                 "codemode, git_grep, git_grep_1t, rg, rg_1t (default: all)")
      ->delimiter(',');
  app.add_option("--repetitions", options.repetitions, "Timed passes (default 7)");
  app.add_option("--checkout-dir", options.checkout_dir,
                 "Where the commits' exports for rg are kept")
      ->required();
  app.add_option("--git", options.command.git, "git");
  app.add_option("--rg", options.command.rg, "ripgrep");
  app.add_option("--git-regex-flag", options.command.git_regex_flag,
                 "git grep's flag for the regex case: -E (default), -P or -G");
  app.add_option("--locale", options.locale, "The baselines' LC_ALL (default C.UTF-8)");
  app.add_option("--search-seconds", search_seconds,
                 "RepositoryToolsOptions.search_time, 0.01 .. 60 (default 60)");
  app.add_option("--max-results", options.codemode.max_results, "searchCode's max_results");
  app.add_option("--max-bytes", options.codemode.max_bytes, "searchCode's max_bytes");
  app.add_option("--json", options.json_path, "Also write the report as JSON to this file");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    return app.exit(error) == 0 ? 0 : kExitError;
  }
  options.codemode.search_time = std::chrono::milliseconds(static_cast<long>(search_seconds * 1e3));
  for (const std::string& text : repositories) {
    codemode::search_bench::BenchRepository repository{.rare = default_rare};
    if (!split_pair(text, repository.name, repository.path)) {
      std::cerr << "codemode-search-bench: --repository takes NAME=PATH, not " << text << "\n";
      return kExitError;
    }
    options.repositories.push_back(std::move(repository));
  }
  for (const std::string& text : rares) {
    std::string name, word;
    if (!split_pair(text, name, word)) {
      std::cerr << "codemode-search-bench: --rare takes NAME=WORD, not " << text << "\n";
      return kExitError;
    }
    bool known = false;
    for (auto& repository : options.repositories) {
      if (repository.name == name) {
        repository.rare = word;
        known = true;
      }
    }
    if (!known) {
      std::cerr << "codemode-search-bench: --rare names no --repository: " << name << "\n";
      return kExitError;
    }
  }
  return codemode::search_bench::run_search_bench(options);
}
