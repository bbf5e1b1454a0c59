// The codemode subject: the repository tools (make_repository_tools) called through the ordinary
// broker (invoke_tool), as a program's calls are. search() is one whole search: searchCode's first
// page and every page after it, following next_cursor until has_more is false, counting the items.
// Its wall time is measured around those calls; its CPU time is this process's (user + system)
// over the same span, so the broker's and the tools' threads count too.
#ifndef CODEMODE_BENCH_REPOSITORY_CODEMODE_SEARCHER_H_
#define CODEMODE_BENCH_REPOSITORY_CODEMODE_SEARCHER_H_

#include <chrono>
#include <cstddef>
#include <string>
#include <vector>

#include "codemode/error.h"
#include "codemode/json.h"
#include "codemode/repository_tools.h"

#include "search/search_cases.h"

namespace codemode::search_bench {

struct CodemodeSearcherOptions {
  std::vector<RepositoryRoot> roots;
  // RepositoryToolsOptions.search_time: the bench sets it high (60 s) so that no page stops for
  // time and the pages end only at max_results or max_bytes.
  std::chrono::milliseconds search_time{60'000};
  int max_results = 1'000;  // per page, 1 .. 1,000
  int max_bytes = 262'144;  // per page, 1,024 .. 262,144
};

struct CodemodeRun {
  double wall_ms = 0;
  double cpu_ms = 0;
  std::size_t lines = 0;  // items over every page
  std::size_t pages = 0;
  // scan, summed over the pages (a file a page resumes in is counted again by that page)
  std::size_t files_scanned = 0;
  std::size_t bytes_scanned = 0;
  std::size_t skipped_binary = 0;
  std::size_t skipped_large = 0;
  std::size_t skipped_long_lines = 0;  // too long for one bounded match, never matched
  bool stopped_for_time = false;       // some page said stopped: "time_budget"
};

class CodemodeSearcher {
 public:
  static Result<CodemodeSearcher> make(const CodemodeSearcherOptions& options);

  // repo.open of `repository` at HEAD: its output ({snapshot_id, commit_sha, ...}).
  Result<Json> open(const std::string& repository);
  // Every page of one searchCode query over the snapshot.
  Result<CodemodeRun> search(const std::string& snapshot_id, const SearchCase& search);

 private:
  CodemodeSearcher(RepositoryTools tools, CodemodeSearcherOptions options)
      : tools_(std::move(tools)), options_(std::move(options)) {}
  Result<Json> call(const std::string& operation, const Json& input);

  RepositoryTools tools_;
  CodemodeSearcherOptions options_;
  std::size_t calls_ = 0;
};

}  // namespace codemode::search_bench

#endif  // CODEMODE_BENCH_REPOSITORY_CODEMODE_SEARCHER_H_
