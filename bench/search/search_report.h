// The search bench's report: a Markdown table of medians (wall time, then CPU time) with each
// query's matching-line counts and codemode's ratio to git grep, and the same as JSON (format 1).
#ifndef CODEMODE_BENCH_REPOSITORY_SEARCH_REPORT_H_
#define CODEMODE_BENCH_REPOSITORY_SEARCH_REPORT_H_

#include <ostream>

#include "codemode/json.h"

#include "search/search_bench.h"

namespace codemode::search_bench {

void print_report(const SearchBenchReport& report, std::ostream& out);
Json report_json(const SearchBenchReport& report);

}  // namespace codemode::search_bench

#endif  // CODEMODE_BENCH_REPOSITORY_SEARCH_REPORT_H_
