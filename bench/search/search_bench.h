// codemode-search-bench's run (docs/performance.md, "Repository search"): for each repository, open
// a codemode snapshot of HEAD and export the same commit for rg; then one untimed pass that counts
// each subject's matching lines, then `repetitions` timed passes, interleaved: in every pass each
// repository, each query, each subject once, the subjects' order rotated from pass to pass so none
// always runs right after another. Then the table (medians and ratios to git grep), and the JSON if
// asked.
#ifndef CODEMODE_BENCH_REPOSITORY_SEARCH_BENCH_H_
#define CODEMODE_BENCH_REPOSITORY_SEARCH_BENCH_H_

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "search/codemode_searcher.h"
#include "search/search_cases.h"

namespace codemode::search_bench {

inline constexpr int kExitPassed = 0;
inline constexpr int kExitFailed = 1;  // a subject failed, or codemode and git grep disagreed
inline constexpr int kExitError = 2;   // the bench could not run

struct BenchRepository {
  std::string name;  // a root name: ^[A-Za-z][A-Za-z0-9_-]{0,63}$
  std::string path;  // the repository's work tree (or a bare repository)
  std::string rare;  // its rare literal
};

struct SearchBenchOptions {
  std::vector<BenchRepository> repositories;
  std::vector<std::string> cases = kCaseNames;
  std::vector<std::string> subjects = kSubjectNames;
  std::string common = "return";
  std::string regex = R"(ret[a-z]+n\s*\()";
  int repetitions = 7;
  std::string checkout_dir;  // where the exports for rg are kept, one per repository and commit
  BaselineCommand command;
  std::string locale = "C.UTF-8";    // the baselines' LC_ALL
  CodemodeSearcherOptions codemode;  // roots are filled from `repositories`
  std::string json_path;
};

// One repository x query x subject.
struct CellResult {
  std::size_t repository = 0;  // index into SearchBenchReport::repositories
  SearchCase search;
  Subject subject = Subject::kCodemode;
  std::optional<std::size_t> lines;  // from the untimed pass
  std::vector<double> wall_ms;       // one per timed pass
  std::vector<double> cpu_ms;
  std::optional<CodemodeRun> codemode;  // the untimed pass's pages and scan, codemode only
  std::string failure;                  // empty when every run succeeded
};

struct RepositoryInfo {
  std::string name;
  std::string path;
  std::string commit;
  std::string checkout;        // the export rg searches
  std::size_t tree_files = 0;  // blobs in the commit's tree (git ls-tree -r)
  std::string snapshot_id;
};

struct SearchBenchReport {
  SearchBenchOptions options;
  std::vector<RepositoryInfo> repositories;
  std::vector<CellResult> cells;
  std::string git_version;
  std::string rg_version;
  long cpus = 0;
  std::string load_start;  // /proc/loadavg's first three fields
  std::string load_end;
  double wall_seconds = 0;
  bool all_succeeded = true;
  bool counts_agree = true;  // codemode's lines equal git grep's for every query
};

// The exit status: kExitPassed, kExitFailed or kExitError.
int run_search_bench(const SearchBenchOptions& options);

}  // namespace codemode::search_bench

#endif  // CODEMODE_BENCH_REPOSITORY_SEARCH_BENCH_H_
