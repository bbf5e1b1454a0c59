// The steps of context (context_operation.cc), declared here so that each is tested on its own:
// the windows the scan opens and merges, their ranking, the envelope, and the page of windows, each
// shown with its text and the queries it holds.
#ifndef CODEMODE_REPOSITORY_OPERATIONS_CONTEXT_STEPS_H_
#define CODEMODE_REPOSITORY_OPERATIONS_CONTEXT_STEPS_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "codemode/error.h"
#include "codemode/json.h"

#include "repository/paging/page_budget.h"
#include "repository/search/code_search.h"
#include "repository/snapshot/snapshot_reader.h"
#include "repository/walk/file_scan.h"

namespace codemode::repository::context_steps {

// The most windows one page's scan considers, and the most lines merging makes one window.
inline constexpr std::size_t kMaxCandidateWindows = 5'000;
inline constexpr std::size_t kMaxWindowLines = 400;

struct Window {
  std::size_t file = 0;   // in the request's files
  std::size_t first = 0;  // 1-based, inclusive
  std::size_t last = 0;   // may pass the file's last line
  unsigned queries = 0;   // query i is bit i
  std::vector<std::size_t> matched;
};

// The windows of a scan, in file and line order until ranked.
struct Candidates {
  std::vector<Window> windows;
  bool truncated = false;  // a match was left out: kMaxCandidateWindows were open
};

// The lines `around` a match at line `line_number` opens: first is never before line 1.
struct LineSpan {
  std::size_t first = 0;
  std::size_t last = 0;
};
LineSpan span_around(std::size_t line_number, std::size_t around);

// Adds the match at line `line_number` of file `file`, which `queries` match: into the last
// window when it is of the same file, overlaps or touches the match's span and stays under
// kMaxWindowLines, else as a new window. False (and truncated) when a new window would pass
// kMaxCandidateWindows.
bool add_match(Candidates& candidates, std::size_t file, std::size_t line_number, unsigned queries,
               std::size_t around);

// The windows of the request's files, scanned from the first until `limit` stops the scan or the
// candidates are full; repository_unreadable when a file cannot be read.
Result<Candidates> collect_windows(const SearchRequest& request, std::size_t around,
                                   ScanLimit& limit, ScanCounts& counts);

// Orders windows by how many distinct queries they hold, then how many matching lines; windows
// that tie keep their file and line order.
void rank_windows(std::vector<Window>& windows);

// The answer's members before its items.
Json context_envelope(Json provenance, const Candidates& candidates, bool walk_truncated,
                      const ScanCounts& counts, bool out_of_time);

// The lines of `window` in `content`, shown as read shows them and joined by "\n"; `last` is the
// window's last line within the file.
std::string window_text(std::string_view content, const Window& window, std::size_t& last);

// The indexes of the queries in a bit set, in order.
Json query_indexes(unsigned queries);

// The answer's item for `window` of `file`, read again from the snapshot.
Result<Json> window_item(const SnapshotReader& reader, const SearchFile& file,
                         const Window& window);

// The items of one page: the ranked windows from `offset` while they fit `budget`, at most
// `max_results`; `next` is the first window not shown.
struct WindowPage {
  Json items = Json::array();
  std::size_t next = 0;
};
Result<WindowPage> page_windows(const SearchRequest& request, const std::vector<Window>& ranked,
                                std::size_t offset, std::size_t max_results, PageBudget& budget);

}  // namespace codemode::repository::context_steps

#endif  // CODEMODE_REPOSITORY_OPERATIONS_CONTEXT_STEPS_H_
