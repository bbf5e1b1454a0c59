// The steps of read (read_operation.cc), declared here so that each is tested on its own:
// the request's lines, the file it names, the format, the range a page covers, the lines that fit
// its budget, and the page they make.
#ifndef CODEMODE_REPOSITORY_OPERATIONS_READ_STEPS_H_
#define CODEMODE_REPOSITORY_OPERATIONS_READ_STEPS_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "codemode/error.h"
#include "codemode/json.h"

#include "repository/paging/page_budget.h"
#include "repository/snapshot/git_handles.h"
#include "repository/snapshot/snapshot_reader.h"

namespace codemode::repository::read_steps {

// What a request asks to read: a checked path and its start_line..end_line, before any snapshot is
// opened.
struct LineRequest {
  std::string path;
  std::int64_t first = 1;
  std::int64_t last = 0;  // end_line, or the largest int64 when it is not given
};
// path_refused for a path that could leave the tree, not_a_file for the root, invalid_range when
// end_line is before start_line.
Result<LineRequest> line_request_of(const Json& input);

// The file entry at `path`: path_not_found, or not_a_file for a directory, a submodule or a
// symbolic link (each refusal says what to do instead).
Result<SnapshotEntry> file_entry(const SnapshotReader& reader, const std::string& path);

// The blob of `entry`, read only when it is at most kMaxReadBlobBytes (file_too_large).
Result<GitBlob> file_blob(const SnapshotReader& reader, const SnapshotEntry& entry,
                          const std::string& path);

// The formats the request's schema allows: the lines joined by "\n", numbered lines, or one
// structured item.
enum class ReadFormat { kText, kLines, kStructured };

// "text", "lines" or "structured": the format's name in a request and in an answer.
std::string_view format_name(ReadFormat format);

// The request's format, or the default: text for compact defaults (code mode), else structured.
ReadFormat read_format_of(const Json& input, bool compact_defaults);

// The answer's members before its lines: provenance, format (unless structured), path, blob_sha.
Json read_envelope(Json provenance, ReadFormat format, const std::string& path,
                   const std::string& blob_sha);

// The whole answer for a binary file: its size, no lines (page_too_small when even that does not
// fit max_bytes).
Result<Json> binary_page(Json envelope, std::size_t size_bytes, std::size_t max_bytes);

// The lines one page may show: from the request's first line, or the cursor's when it is later,
// to the request's last line, or the file's.
struct LineRange {
  std::int64_t from = 1;
  std::int64_t to = 0;  // before `from` when there is nothing to show
  std::int64_t total = 0;
};
LineRange line_range(const LineRequest& request, const Json& cursor_start, std::int64_t total);

// The lines taken for a page, as text (joined by "\n") or numbered lines.
struct ReadLines {
  std::int64_t next = 1;  // the first line not taken
  std::int64_t cut_lines = 0;
  std::string text;
  Json lines = Json::array();
};

// Whether line `number`, shown as `shown`, fits `budget` (then it is counted); numbered lines
// pay for their {"line_number":N,"text":} frame. A first line longer than the page is cut to what
// fits and `cut` is set, so that every page moves on.
bool fit_line(std::string& shown, bool& cut, std::int64_t number, bool first, bool numbered,
              PageBudget& budget);

// The lines of `range` from `content` while they fit `budget`, at most `max_lines`.
ReadLines take_lines(std::string_view content, const LineRange& range, std::size_t max_lines,
                     bool numbered, PageBudget& budget);

// Sets the member of `page` (a read_envelope) that holds the lines for `format`: text, lines, or
// items with one item {path, blob_sha, start_line: from, end_line, text}.
void put_lines(Json& page, ReadFormat format, std::int64_t from, const Json& end_line,
               ReadLines lines);

// `envelope` with the members of a page of lines, so that a budget made from it counts them:
// total_lines, start_line, end_line, returned_lines (max_lines, the most it can be), cut_lines and
// the format's lines member, empty (a structured item's end_line is range.to, the most it can be).
Json lines_envelope(Json envelope, ReadFormat format, const LineRange& range,
                    std::size_t max_lines);

// `page` (a lines_envelope) with what was taken: returned_lines, end_line, cut_lines and the lines.
Json shape_lines_page(Json page, ReadFormat format, const LineRange& range, ReadLines taken);

}  // namespace codemode::repository::read_steps

#endif  // CODEMODE_REPOSITORY_OPERATIONS_READ_STEPS_H_
