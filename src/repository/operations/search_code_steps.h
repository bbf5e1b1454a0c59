// The steps of searchCode (search_code_operation.cc), declared here so that each is tested on its
// own: where a page resumes, its envelope, the items it holds within its budget, the scan of the
// files from where it resumes, and the page the scan makes.
#ifndef CODEMODE_REPOSITORY_OPERATIONS_SEARCH_CODE_STEPS_H_
#define CODEMODE_REPOSITORY_OPERATIONS_SEARCH_CODE_STEPS_H_

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "codemode/error.h"
#include "codemode/json.h"

#include "repository/paging/page_budget.h"
#include "repository/search/code_search.h"
#include "repository/search/search_file_cache.h"
#include "repository/walk/file_scan.h"

namespace codemode::repository::search_code_steps {

// The `context` lines before (or after) line `line_number` (1-based) of `content`, shown as read
// shows them; fewer at the file's start or end. `starts` is line_starts(content), made once per
// file.
std::vector<std::string> lines_around(std::string_view content,
                                      const std::vector<std::size_t>& starts,
                                      std::size_t line_number, std::size_t context, bool after);

// Where a page's scan starts: a file of the request's list, and a line of it.
struct ResumePoint {
  std::size_t file = 0;
  ScanPosition position;
};
// The cursor's offset ({file, line, offset}) as a ResumePoint; the first file's start without one.
ResumePoint resume_point_of(const Json& cursor_start);
// The cursor offset that resumes at `position` of file `file`.
Json resume_at(std::size_t file, ScanPosition position);

// The answer's members before its items, with the widest scan counts `files` files can give and
// stopped: "time_budget", so that a budget made from it counts them.
Json search_envelope(Json provenance, std::size_t files, bool walk_truncated);

// The items of one page, within max_results and the page's byte budget, and the room for
// scan.skipped_long_lines, which appears only when a line was skipped: its room is taken at the
// first, so that pages that skip none keep theirs.
class PageItems {
 public:
  // `input` gives context_lines, max_results and max_bytes; `envelope` is the answer without its
  // items; `files` and `max_line_bytes` bound how many lines a page can skip.
  PageItems(const Json& input, const Json& envelope, std::size_t files, std::size_t max_line_bytes);

  bool viable() const { return budget_.viable(); }
  bool full() const { return full_; }
  Json take() { return std::move(items_); }

  // For the lines of `file` that follow.
  void start_file(const SearchFile& file, std::string_view content);
  // Whether `line` was added; false when the page is full.
  bool add(const MatchingLine& line);
  // Whether a skipped line can be counted in the page; false when it is full.
  bool skipping_long_line();

 private:
  bool fill();
  // A first match larger than the page: its line alone, cut to fit, so every page moves on.
  void cut_to_page(Json& item) const;

  const std::size_t context_lines_;
  const std::size_t max_results_;
  PageBudget budget_;
  const std::size_t long_lines_bytes_;
  bool long_lines_room_ = false;
  bool full_ = false;
  Json items_ = Json::array();
  const SearchFile* file_ = nullptr;
  std::string_view content_;
  std::string blob_sha_;
  std::size_t path_bytes_ = 0;
  std::vector<std::size_t> starts_;  // of the file, made once when context needs it
};

// Scans the request's files from `from` into `items` until the files end, `limit` stops the scan
// or `items` is full. Returns where the next page resumes, nullopt when every file was scanned;
// repository_unreadable when a file cannot be read.
Result<std::optional<ResumePoint>> scan_files(const SearchRequest& request, ResumePoint from,
                                              ScanLimit& limit, ScanCounts& counts,
                                              PageItems& items);

// `page` (a search_envelope) with the items found and the scan's real counts; stopped stays only
// when the scan ran out of time.
Json shape_search_page(Json page, Json found, const ScanCounts& counts, bool out_of_time);

}  // namespace codemode::repository::search_code_steps

#endif  // CODEMODE_REPOSITORY_OPERATIONS_SEARCH_CODE_STEPS_H_
