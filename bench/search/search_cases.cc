#include "search/search_cases.h"

#include <algorithm>
#include <cctype>

namespace codemode::search_bench {
namespace {

std::string upper(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  return text;
}

}  // namespace

std::vector<SearchCase> make_cases(const CaseWords& words, const std::vector<std::string>& names) {
  std::vector<SearchCase> cases;
  const auto asked = [&](std::string_view name) {
    return std::find(names.begin(), names.end(), name) != names.end();
  };
  if (asked("rare")) cases.push_back({.name = "rare", .pattern = words.rare});
  if (asked("common")) cases.push_back({.name = "common", .pattern = words.common});
  if (asked("ignore_case")) {
    cases.push_back({.name = "ignore_case", .pattern = upper(words.rare), .case_sensitive = false});
  }
  if (asked("regex")) cases.push_back({.name = "regex", .pattern = words.regex, .regex = true});
  return cases;
}

std::string_view to_string(Subject subject) {
  return kSubjectNames[static_cast<std::size_t>(subject)];
}

std::optional<Subject> subject_from_string(std::string_view name) {
  for (std::size_t i = 0; i < kSubjectNames.size(); ++i) {
    if (kSubjectNames[i] == name) return static_cast<Subject>(i);
  }
  return std::nullopt;
}

std::string_view label(Subject subject) {
  switch (subject) {
    case Subject::kCodemode:
      return "codemode";
    case Subject::kGitGrep:
      return "git grep";
    case Subject::kGitGrep1t:
      return "git grep --threads 1";
    case Subject::kRipgrep:
      return "rg";
    case Subject::kRipgrep1t:
      return "rg -j1";
  }
  return "";
}

std::vector<std::string> git_grep_argv(const BaselineCommand& command,
                                       const std::string& repository, const std::string& commit,
                                       const SearchCase& search, bool one_thread) {
  std::vector<std::string> argv{command.git, "-C", repository, "grep", "-n", "-I", "--no-color"};
  if (one_thread) argv.insert(argv.end(), {"--threads", "1"});
  argv.push_back(search.regex ? command.git_regex_flag : "-F");
  if (!search.case_sensitive) argv.push_back("-i");
  argv.insert(argv.end(), {"-e", search.pattern, commit});
  return argv;
}

std::vector<std::string> rg_argv(const BaselineCommand& command, const std::string& checkout,
                                 const SearchCase& search, bool one_thread) {
  std::vector<std::string> argv{command.rg, "--no-config", "-n",      "--no-heading",
                                "--hidden", "--no-ignore", "--color", "never"};
  if (one_thread) argv.push_back("-j1");
  if (!search.regex) argv.push_back("-F");
  if (!search.case_sensitive) argv.push_back("-i");
  argv.insert(argv.end(), {"-e", search.pattern, checkout});
  return argv;
}

}  // namespace codemode::search_bench
