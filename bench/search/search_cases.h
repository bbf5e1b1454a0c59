// What the search bench times: the queries (one set per repository), the subjects that answer them,
// and the command line each baseline is given for the same query over the same commit.
//
//   rare         a literal in a few files (the generated repository's needle_token_xyz: 50 files)
//   common       a literal on most files' lines (`return`: 9,000 of 10,000 generated files)
//   ignore_case  the rare literal in upper case, matched without case
//   regex        a regular expression (RE2 for codemode, ERE or PCRE for git grep, Rust's for rg)
//
// Every subject counts matching lines, not matches: git grep -n and rg -n print one line per
// matching line, and searchCode returns one item per matching line.
#ifndef CODEMODE_BENCH_REPOSITORY_SEARCH_CASES_H_
#define CODEMODE_BENCH_REPOSITORY_SEARCH_CASES_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace codemode::search_bench {

struct SearchCase {
  std::string name;  // one of kCaseNames
  std::string pattern;
  bool regex = false;
  bool case_sensitive = true;
};

inline const std::vector<std::string> kCaseNames{"rare", "common", "ignore_case", "regex"};

struct CaseWords {
  std::string rare;
  std::string common;
  std::string regex;
};

// The cases named in `names` (any order, each of kCaseNames), in kCaseNames order.
std::vector<SearchCase> make_cases(const CaseWords& words, const std::vector<std::string>& names);

// Who answers a query. git grep reads the commit's objects, as searchCode does; rg reads an export
// of the same commit (files on disk). The _1t variants run on one thread, as searchCode does.
enum class Subject { kCodemode, kGitGrep, kGitGrep1t, kRipgrep, kRipgrep1t };
inline const std::vector<std::string> kSubjectNames{"codemode", "git_grep", "git_grep_1t", "rg",
                                                    "rg_1t"};
std::string_view to_string(Subject subject);
std::optional<Subject> subject_from_string(std::string_view name);
// The table's column label: "git grep", "git grep --threads 1", ...
std::string_view label(Subject subject);

struct BaselineCommand {
  std::string git = "git";
  std::string rg = "rg";
  std::string git_regex_flag = "-E";  // or -P (PCRE2) or -G
};

// git grep over `commit`'s tree in `repository` (a work tree or a git directory).
std::vector<std::string> git_grep_argv(const BaselineCommand& command,
                                       const std::string& repository, const std::string& commit,
                                       const SearchCase& search, bool one_thread);
// rg over the directory `checkout`, hidden files included and no ignore file obeyed, so it sees
// every file of the commit.
std::vector<std::string> rg_argv(const BaselineCommand& command, const std::string& checkout,
                                 const SearchCase& search, bool one_thread);

}  // namespace codemode::search_bench

#endif  // CODEMODE_BENCH_REPOSITORY_SEARCH_CASES_H_
